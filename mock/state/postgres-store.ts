/**
 * The PostgreSQL store (`--state postgres://…`): replicas on one database behave as one service
 * (docs/integrators.md, "State and replicas"). Tables (postgres-sql.ts): `mock_rows` (rows.ts's rows, each
 * with a revision from one sequence; a deletion is a row without a document) and `mock_rate`.
 * - Every API request first catches up: one indexed query reads the rows above the highest revision this
 *   replica has seen and applies them (rows-apply.ts); a new generation in the world row (a reset or
 *   import) reloads everything. A known key's rate count goes in the same statement: budgets are shared.
 *   Requests arriving together share that statement (postgres-reads.ts).
 * - A write runs in one transaction holding its organization's row lock (`SELECT … FOR UPDATE`): catch
 *   up → handler → store the changed rows and the `org` row with new revisions → commit → answer, so
 *   exactly-once rules (parts-section versions, approval once, idempotency keys) hold across replicas.
 *   Writes to one organization waiting in a process run in one transaction (a group commit).
 * - Control requests lock what they change (control/routes.ts `controlEffect`): the world row, one
 *   organization's row, or everything (an advisory lock every write takes shared).
 * Cost: one round trip per group of reads (a key this replica has not seen adds one); five per group of writes;
 * the frequent statements are named (prepared once per connection).
 */
import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { MockApp, StageTools } from '../app.ts';
import type { Reply } from '../http/context.ts';
import { ProblemError } from '../http/problem.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { Clock } from '../store/clock.ts';
import { ANSWERED, type StageWork } from '../pipeline/stages.ts';
import { World } from '../store/world.ts';
import { applyWorldDoc, dropOrg, worldFromState, worldToDoc, type WorldDoc } from './document.ts';
import { isRead, type ControlEffect, type Persistence } from './persistence.ts';
import { CATCH_UP_TAKES, CatchUps, readStages, slotsOf, takeValues, type CatchUpRow, type RateTake } from './postgres-reads.ts';
import { ALL_ROWS, Batches, connectPool, documentFormat, INIT_LOCK, lockStatement, putAll, putRows, queued, unwrap, type Outcome, type PgRow } from './postgres-sql.ts';
import { redact } from './redact.ts';
import { applyRow } from './rows-apply.ts';
import { loadOrgRows, WORLD_KIND, WORLD_ORG, type StoredRow } from './rows.ts';
import { ChangeTracker, touchOrgAndKeys, type RowChange } from './tracker.ts';

type Queryable = pg.Pool | pg.PoolClient; // a statement alone, or inside a transaction
type WorldRowDoc = WorldDoc & { generation?: number };
type Scope = Exclude<ControlEffect, { kind: 'read' }>;

export class PostgresStore implements Persistence {
  readonly description: string;
  /** The highest revision applied: every row at or below it is in memory. */
  private seen = 0;
  /** The world row's generation this replica loaded (a reset or import starts another). */
  private generation = 0;
  /** Revisions this process wrote and has not seen come back yet (its memory has them already). */
  private readonly own = new Set<number>();
  /** Reload everything (a write of everything failed halfway) on the next catch-up. */
  private reloadAll = false;
  private readonly tracker = new ChangeTracker();
  /** Writes queued per lock scope in this process. */
  private readonly queues = new Map<string, Promise<unknown>>();
  /** API writes waiting for their organization's lock: they run in one transaction (one commit for all: a group commit). */
  private readonly batches = new Batches<Reply>(this.queues, (orgId, jobs) => this.transactAll({ kind: 'org', orgId }, jobs));
  /** Catch-ups of API reads and control reads, shared by the reads of a moment. */
  private readonly catchUps = new CatchUps((takes) => this.catchUp(this.pool, takes));
  private app?: MockApp;
  private readonly entropy = randomInt(2 ** 31);

  private constructor(private readonly pool: pg.Pool, url: string) {
    this.description = `postgres ${redact(url)}`;
  }

  /** Connects and creates the tables when absent; rejects with the driver's error when it cannot. */
  static async connect(url: string): Promise<PostgresStore> {
    return new PostgresStore(await connectPool(url), url);
  }

  async open(initial: () => World): Promise<{ world: World; loaded: boolean }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [INIT_LOCK]);
      const stored = await client.query('SELECT 1 FROM mock_rows WHERE org = $1 AND kind = $2', [WORLD_ORG, WORLD_KIND]);
      if (stored.rowCount) {
        await client.query('COMMIT');
        return { world: await this.load(client), loaded: true };
      }
      // A database of the earlier format (one document per organization, table mock_state): its state, stored again as rows.
      const old = await documentFormat(client);
      const world = old ? worldFromState(old, this.entropy) : initial();
      await this.writeAll(client, world);
      if (old) await client.query('DROP TABLE mock_state');
      await client.query('COMMIT');
      return { world, loaded: Boolean(old) };
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  stages(defaults: Readonly<StageWork>, tools: StageTools): Partial<StageWork> {
    this.app = tools.app;
    const { handlers } = tools;
    return {
      ...readStages(this.catchUps, defaults, tools),
      handle: (ex: Exchange) => {
        if (isRead(ex.method)) return defaults.handle(ex);
        const orgId = ex.key.orgId;
        return this.batches.add(orgId, () => {
          const world = (ex.world = this.app!.world);
          const org = world.orgs.get(orgId);
          if (!org) throw new ProblemError(401, 'invalid_api_key', 'The API key is unknown, expired or revoked.');
          ex.org = org;
          this.tracker.attach(org);
          const reply = handlers[ex.op.operationId]!(ex);
          if (reply.status < 300) this.tracker.touch(orgId, 'org', orgId);
          return reply;
        }).then((reply) => {
          tools.reply(ex, reply);
          return ANSWERED;
        });
      },
    };
  }

  control<T extends { status: number }>(app: MockApp, effect: ControlEffect, run: () => T): Promise<T> {
    this.app = app;
    if (effect.kind === 'read') return this.catchUps.join().then(run);
    if (effect.kind !== 'org') return this.transact(effect, run);
    return this.transact(effect, () => {
      const before = app.world.orgs.get(effect.orgId);
      if (before) this.tracker.attach(before);
      const out = run();
      const org = app.world.orgs.get(effect.orgId);
      if (out.status < 300 && org) touchOrgAndKeys(this.tracker, app.world, org);
      return out;
    });
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  /**
   * Applies every row stored with a revision above the highest seen and counts `takes` in their windows,
   * in one statement (CATCH_UP_TAKES); resolves with each take's slot. Reads share it (CatchUps); a write
   * runs it inside its transaction.
   */
  private async catchUp(db: Queryable, takes: RateTake[] = []): Promise<number[]> {
    if (this.reloadAll) {
      this.reloadAll = false;
      await this.load(db, this.app!.world);
    }
    const rows = (await db.query<CatchUpRow>({ name: 'mock_catch_up_takes', text: CATCH_UP_TAKES, values: [...takeValues(takes), this.seen] })).rows;
    const used = new Map<string, number>();
    let first = 0;
    for (; first < rows.length && rows[first]!.org === null; first++) used.set(rows[first]!.bucket!, rows[first]!.used!);
    if (first < rows.length) await this.apply(db, rows.slice(first));
    return slotsOf(takes, used);
  }

  /** Applies rows newer than what this process has (a later catch-up may have applied them already). */
  private async apply(db: Queryable, rows: PgRow[]): Promise<void> {
    const world = this.app!.world;
    const floor = this.seen;
    let top = floor;
    for (const r of rows) {
      if (r.revision == null) continue;
      const revision = Number(r.revision);
      const mine = this.own.delete(revision);
      if (revision <= floor) continue;
      top = Math.max(top, revision);
      if (mine) continue;
      if (r.org === WORLD_ORG) {
        const doc = JSON.parse(r.doc!) as WorldRowDoc;
        if ((doc.generation ?? 0) !== this.generation) return void (await this.load(db, world));
        this.applyWorld(world, doc);
      } else applyRow(world, r.org, r.kind, r.id, r.doc);
    }
    this.seen = Math.max(this.seen, top);
    this.tracker.clear();
  }

  private applyWorld(world: World, doc: WorldRowDoc): void {
    const before = world.cursorSecret;
    applyWorldDoc(world, doc, this.entropy);
    if (!before.equals(world.cursorSecret)) this.app?.refreshCursors(); // cursors of the new key
  }

  /**
   * Loads every stored row: into `into` in place (organizations no longer stored are dropped), or into a
   * new world. Rows are read in one statement (one snapshot).
   */
  private async load(db: Queryable, into?: World): Promise<World> {
    const rows = (await db.query<PgRow>(ALL_ROWS)).rows;
    const worldRow = rows.find((r) => r.org === WORLD_ORG)!;
    const doc = JSON.parse(worldRow.doc!) as WorldRowDoc;
    const world = into ?? new World(doc.seed, new Clock());
    if (into) this.applyWorld(world, doc);
    else applyWorldDoc(world, doc, this.entropy);
    const stored = new Set(rows.map((r) => r.org));
    for (const id of [...world.orgs.keys()]) if (!stored.has(id)) dropOrg(world, id);
    loadOrgRows(world, rows.filter((r): r is PgRow & StoredRow => r.org !== WORLD_ORG && r.doc !== null));
    this.seen = rows.reduce((top, r) => Math.max(top, Number(r.revision)), 0);
    this.generation = doc.generation ?? 0;
    this.own.clear();
    this.tracker.clear();
    return world;
  }

  /** Runs `run` alone under `scope`'s lock (transactAll), after this process's earlier tasks of that scope. */
  private transact<T extends { status: number }>(scope: Scope, run: () => T): Promise<T> {
    const lockKey = scope.kind === 'org' ? `org:${scope.orgId}` : scope.kind;
    return queued(this.queues, lockKey, () => this.transactAll(scope, [run])).then(([o]) => unwrap(o!));
  }

  /**
   * Runs `jobs` one after another in one transaction holding the lock of `scope` with the state up to
   * date, stores the rows they changed (everything for scope `all` when it succeeded) and commits. A
   * job's error fails that job (anything but a ProblemError before a change reloads everything next);
   * a failed commit fails them all.
   */
  private async transactAll<T extends { status: number }>(scope: Scope, jobs: Array<() => T>): Promise<Array<Outcome<T>>> {
    const client = await this.pool.connect();
    let ran = false;
    try {
      await client.query(lockStatement(scope, (v) => client.escapeLiteral(v)));
      await this.catchUp(client);
      ran = true;
      const changes = new Map<string, RowChange>();
      const outcomes = jobs.map((job): Outcome<T> => {
        this.tracker.clear();
        try {
          const ok = job();
          for (const c of this.tracker.changes(this.app!.world)) changes.set(`${c[0]}\t${c[1]}\t${c[2]}`, c);
          return { ok };
        } catch (err) {
          if (!(err instanceof ProblemError && this.tracker.size === 0)) this.reloadAll = true;
          this.tracker.clear();
          return { err };
        }
      });
      const succeeded = outcomes.some((o) => 'ok' in o && o.ok.status < 300);
      const world = this.app!.world; // a reset replaced it
      if (scope.kind === 'all') {
        if (succeeded) {
          this.generation++;
          await this.writeAll(client, world);
          if (scope.reset) await client.query('DELETE FROM mock_rate');
        }
      } else {
        if (scope.kind === 'world' && succeeded) changes.set(WORLD_KIND, [WORLD_ORG, WORLD_KIND, '', JSON.stringify(this.worldRow(world))]);
        if (changes.size > 0) for (const revision of await putRows(client, [...changes.values()])) this.own.add(revision);
      }
      await client.query('COMMIT');
      return outcomes;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (ran) this.reloadAll = true; // memory may be ahead of the store (rare: reload it all)
      this.tracker.clear();
      throw e;
    } finally {
      client.release();
    }
  }

  private worldRow(world: World): WorldRowDoc {
    return { ...worldToDoc(world), generation: this.generation };
  }

  /** Replaces every stored row by `world`'s (inside the caller's transaction); this replica has seen them all. */
  private async writeAll(client: pg.PoolClient, world: World): Promise<void> {
    // Every writer holds the shared lock this write holds exclusively: nothing below the top revision is unseen.
    this.seen = await putAll(client, world, JSON.stringify(this.worldRow(world)));
    this.own.clear();
    this.tracker.clear();
  }
}
