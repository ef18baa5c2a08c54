/**
 * The PostgreSQL store (`--state postgres://…`): replicas of the mock on one database behave as one
 * service (docs/integrators.md, "State and replicas"). Tables: `mock_state` (one JSON document per
 * organization and one for the world part, document.ts, each with a revision from one global sequence)
 * and `mock_rate` (one rate-limit window per key bucket).
 *
 * - Every API request first catches up: one query reads every document's revision and any newer
 *   document is loaded (read-your-write across replicas).
 * - Rate-limit windows are counted in `mock_rate` (one upsert per request, in the catch-up's statement
 *   when this replica knows the key already): a key's budget is shared.
 * - A write (any method but GET/HEAD/OPTIONS) runs in one transaction holding its organization's row
 *   lock (`SELECT … FOR UPDATE`): reload if stale → handler → store the whole document with a new
 *   revision → commit → answer. Exactly-once rules (parts-section versions, approval once, idempotency
 *   keys) therefore hold across replicas. Within a process, writes to one organization queue up so one
 *   connection at a time waits for the lock.
 * - Control requests lock what they change (control/routes.ts `controlEffect`): the world row, one
 *   organization's row, or every row under an advisory lock.
 *
 * Cost: one round trip per read (two for a key this replica has not seen), four more per write, plus O(organization size) to serialize and store
 * the organization's document (figures in docs/integrators.md).
 */
import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { MockApp, StageTools } from '../app.ts';
import type { Reply } from '../http/context.ts';
import { ProblemError } from '../http/problem.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { authenticate } from '../pipeline/authenticate.ts';
import { rateLimited } from '../pipeline/rate-limit.ts';
import type { ApiKey } from '../store/types.ts';
import { ANSWERED, type StageWork } from '../pipeline/stages.ts';
import type { World } from '../store/world.ts';
import { applyWorldDoc, dropOrg, loadOrg, orgToDoc, worldFromState, worldToDoc, STATE_FORMAT, STATE_VERSION, type OrgDoc, type WorldDoc } from './document.ts';
import { isRead, orgKey, WORLD_KEY, type ControlEffect, type Persistence } from './persistence.ts';
import { rateDecision, windowStart } from './rate.ts';
import { redact } from './redact.ts';

const SCHEMA = `
CREATE SEQUENCE IF NOT EXISTS mock_revision;
CREATE TABLE IF NOT EXISTS mock_state (key text PRIMARY KEY, pos integer NOT NULL, revision bigint NOT NULL, doc text NOT NULL);
ALTER TABLE mock_state ALTER COLUMN doc SET STORAGE EXTERNAL;
CREATE TABLE IF NOT EXISTS mock_rate (bucket text PRIMARY KEY, start bigint NOT NULL, used integer NOT NULL);
`;
/** (Documents are stored uncompressed, STORAGE EXTERNAL: compressing 0.8 MB on every write costs more than it saves.) */
/** Advisory lock ids: schema creation and first seeding; writes that change every document. */
const INIT_LOCK = 0x6d6d7331;
const ALL_LOCK = 0x6d6d7332;

/**
 * Counts one request in a key's window. A window never moves back: a replica whose clock reading is a
 * window behind (it read the clock just before another replica moved on) counts in the newer window.
 */
const TAKE_RATE = 'INSERT INTO mock_rate (bucket, start, used) VALUES ($1, $2, 1) ON CONFLICT (bucket) DO UPDATE SET used = CASE WHEN excluded.start > mock_rate.start THEN 1 ELSE mock_rate.used + 1 END, start = GREATEST(mock_rate.start, excluded.start) RETURNING used';
const UPSERT_DOC = `INSERT INTO mock_state (key, pos, revision, doc) VALUES ($1, (SELECT coalesce(max(pos), 0) + 1 FROM mock_state), nextval('mock_revision'), $2)
  ON CONFLICT (key) DO UPDATE SET doc = excluded.doc, revision = excluded.revision RETURNING revision`;

interface Row { key: string; revision: string; doc?: string }

export class PostgresStore implements Persistence {
  readonly description: string;
  /** Revision of every document as this process last loaded or stored it (-1: reload). */
  private readonly revisions = new Map<string, number>();
  /** Writes queued per lock scope in this process. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private app?: MockApp;
  private readonly entropy = randomInt(2 ** 31);

  private constructor(private readonly pool: pg.Pool, url: string) {
    this.description = `postgres ${redact(url)}`;
  }

  /** Connects and creates the tables when absent; rejects with the driver's error when it cannot. */
  static async connect(url: string): Promise<PostgresStore> {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    pool.on('error', () => undefined);
    const client = await pool.connect().catch(async (e) => {
      await pool.end();
      throw e;
    });
    try {
      await client.query('SELECT pg_advisory_lock($1)', [INIT_LOCK]);
      await client.query(SCHEMA);
      await client.query('SELECT pg_advisory_unlock($1)', [INIT_LOCK]);
    } finally {
      client.release();
    }
    return new PostgresStore(pool, url);
  }

  async open(initial: () => World): Promise<{ world: World; loaded: boolean }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [INIT_LOCK]);
      const rows = (await client.query<Row & { doc: string }>('SELECT key, revision, doc FROM mock_state ORDER BY pos')).rows;
      const worldRow = rows.find((r) => r.key === WORLD_KEY);
      if (!worldRow) {
        const world = initial();
        await this.writeAll(client, world);
        await client.query('COMMIT');
        return { world, loaded: false };
      }
      await client.query('COMMIT');
      const orgRows = rows.filter((r) => r !== worldRow);
      const world = worldFromState({ format: STATE_FORMAT, version: STATE_VERSION, world: JSON.parse(worldRow.doc) as WorldDoc, organizations: orgRows.map((r) => JSON.parse(r.doc) as OrgDoc) }, this.entropy);
      for (const r of rows) this.revisions.set(r.key, Number(r.revision));
      return { world, loaded: true };
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  stages(defaults: Readonly<StageWork>, tools: StageTools): Partial<StageWork> {
    this.app = tools.app;
    const { limits, bucket, handlers } = tools;
    return {
      authenticate: (ex: Exchange) => {
        // A key this replica knows already: its rate count and the catch-up go in one round trip (the
        // key is checked again once caught up: another replica may have revoked it).
        const known = this.knownKey(ex);
        if (!known) return this.catchUp().then(() => defaults.authenticate(ex) as void);
        const now = this.app!.world.clock.now();
        return this.catchUp([bucket(known), windowStart(now)]).then((used) => {
          defaults.authenticate(ex);
          // The count stands unless the catch-up moved the clock (or the minute turned) into another window:
          // then the rateLimit stage counts the request in the window of the clock as it is now.
          if (bucket(ex.key) === bucket(known) && windowStart(ex.now) === windowStart(now)) ex.rate = rateDecision(used!, limits[ex.key.prefix], now);
        });
      },
      rateLimit: (ex: Exchange) => {
        const key = ex.key;
        if (ex.rate) {
          if (!ex.rate.allowed) throw rateLimited(ex.rate);
          return;
        }
        return this.pool.query<{ used: number }>(TAKE_RATE, [bucket(key), windowStart(ex.now)]).then((r) => {
          const rate = (ex.rate = rateDecision(r.rows[0]!.used, limits[key.prefix], ex.now));
          if (!rate.allowed) throw rateLimited(rate);
        });
      },
      handle: (ex: Exchange) => {
        if (isRead(ex.method)) return defaults.handle(ex);
        const orgId = ex.key.orgId;
        return this.transact<Reply>({ kind: 'org', orgId }, () => {
          const world = (ex.world = this.app!.world);
          const org = world.orgs.get(orgId);
          if (!org) throw new ProblemError(401, 'invalid_api_key', 'The API key is unknown, expired or revoked.');
          ex.org = org;
          return handlers[ex.op.operationId]!(ex);
        }).then((reply) => {
          tools.reply(ex, reply);
          return ANSWERED;
        });
      },
    };
  }

  control<T extends { status: number }>(app: MockApp, effect: ControlEffect, run: () => T): Promise<T> {
    this.app = app;
    if (effect.kind === 'read') return this.catchUp().then(run);
    return this.transact(effect, run);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** The valid key of `ex`'s Authorization as this replica knows it, or undefined. */
  private knownKey(ex: Exchange): ApiKey | undefined {
    try {
      return authenticate(ex.req.headers.authorization, this.app!.world, this.app!.world.clock.now());
    } catch {
      return undefined;
    }
  }

  /**
   * Loads every document stored with a newer revision than this process has, and drops deleted
   * organizations; with `rate` ([bucket, window start]) also counts one request in that window, in the
   * same statement, and returns the window's count.
   */
  private async catchUp(rate?: [string, number]): Promise<number | undefined> {
    const rows = rate
      ? (await this.pool.query<Row & { used: number }>(`WITH r AS (${TAKE_RATE}) SELECT (SELECT used FROM r) AS used, key, revision FROM mock_state`, rate)).rows
      : (await this.pool.query<Row & { used?: number }>('SELECT key, revision FROM mock_state')).rows;
    const stale = rows.filter((r) => (this.revisions.get(r.key) ?? -1) < Number(r.revision)).map((r) => r.key);
    if (stale.length > 0) this.apply((await this.pool.query<Row & { doc: string }>('SELECT key, revision, doc FROM mock_state WHERE key = ANY($1) ORDER BY pos', [stale])).rows);
    if (rows.length - 1 < this.app!.world.orgs.size) {
      const present = new Set(rows.map((r) => r.key));
      for (const id of [...this.app!.world.orgs.keys()]) {
        if (!present.has(orgKey(id))) {
          dropOrg(this.app!.world, id);
          this.revisions.delete(orgKey(id));
        }
      }
    }
    return rows[0]?.used;
  }

  /** Applies stored documents newer than what this process has. */
  private apply(rows: Array<Row & { doc: string }>): void {
    const app = this.app!;
    for (const r of rows) {
      const revision = Number(r.revision);
      if ((this.revisions.get(r.key) ?? -1) >= revision) continue;
      if (r.key === WORLD_KEY) {
        const before = app.world.cursorSecret;
        applyWorldDoc(app.world, JSON.parse(r.doc) as WorldDoc, this.entropy);
        if (!before.equals(app.world.cursorSecret)) app.refreshCursors();
      } else loadOrg(app.world, JSON.parse(r.doc) as OrgDoc);
      this.revisions.set(r.key, revision);
    }
  }

  /**
   * Runs `run` in one transaction holding the lock of `scope` with the locked documents up to date, and
   * stores what it changed when it succeeded (a result with status < 300).
   */
  private transact<T extends { status: number }>(scope: Exclude<ControlEffect, { kind: 'read' }>, run: () => T): Promise<T> {
    const lockKey = scope.kind === 'org' ? orgKey(scope.orgId) : scope.kind === 'world' ? WORLD_KEY : '*';
    return this.queued(lockKey, async () => {
      const client = await this.pool.connect();
      let ran = false;
      try {
        await client.query('BEGIN');
        let locked: Row[];
        if (scope.kind === 'all') {
          await client.query('SELECT pg_advisory_xact_lock($1)', [ALL_LOCK]);
          locked = (await client.query<Row>('SELECT key, revision FROM mock_state ORDER BY key FOR UPDATE')).rows;
        } else locked = (await client.query<Row>('SELECT key, revision FROM mock_state WHERE key = $1 FOR UPDATE', [lockKey])).rows;
        const stale = locked.filter((r) => (this.revisions.get(r.key) ?? -1) !== Number(r.revision)).map((r) => r.key);
        if (stale.length > 0) this.apply((await client.query<Row & { doc: string }>('SELECT key, revision, doc FROM mock_state WHERE key = ANY($1) ORDER BY pos', [stale])).rows);
        ran = true;
        const result = run();
        if (result.status >= 300) {
          await client.query('ROLLBACK');
          return result;
        }
        const world = this.app!.world;
        if (scope.kind === 'all') {
          await this.writeAll(client, world);
          if (scope.reset) await client.query('DELETE FROM mock_rate');
        } else if (scope.kind === 'world') await this.write(client, WORLD_KEY, worldToDoc(world));
        else if (world.orgs.has(scope.orgId)) await this.write(client, lockKey, orgToDoc(world, world.orgs.get(scope.orgId)!));
        await client.query('COMMIT');
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        // A ProblemError is thrown before anything changes; anything else may have left memory ahead of the store.
        if (ran && !(e instanceof ProblemError)) {
          if (scope.kind === 'all') for (const k of this.revisions.keys()) this.revisions.set(k, -1);
          else this.revisions.set(lockKey, -1);
        }
        throw e;
      } finally {
        client.release();
      }
    });
  }

  /** Stores one document with a new revision (inside the caller's transaction). */
  private async write(client: pg.PoolClient, key: string, doc: unknown): Promise<void> {
    const r = await client.query<{ revision: string }>(UPSERT_DOC, [key, JSON.stringify(doc)]);
    this.revisions.set(key, Number(r.rows[0]!.revision));
  }

  /** Replaces every stored document by `world`'s (inside the caller's transaction). */
  private async writeAll(client: pg.PoolClient, world: World): Promise<void> {
    const keys = [WORLD_KEY, ...[...world.orgs.keys()].map(orgKey)];
    await client.query('DELETE FROM mock_state WHERE NOT (key = ANY($1))', [keys]);
    await this.write(client, WORLD_KEY, worldToDoc(world));
    for (const org of world.orgs.values()) await this.write(client, orgKey(org.id), orgToDoc(world, org));
    for (const k of [...this.revisions.keys()]) if (!keys.includes(k)) this.revisions.delete(k);
  }

  /** Runs `task` after every earlier task queued under `key` in this process has settled. */
  private queued<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(task, task);
    const settled = next.then(() => undefined, () => undefined);
    this.queues.set(key, settled);
    settled.then(() => {
      if (this.queues.get(key) === settled) this.queues.delete(key);
    });
    return next;
  }
}
