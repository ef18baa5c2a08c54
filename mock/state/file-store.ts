/**
 * The file store (`--state ./mock-state.db`): SQLite through better-sqlite3, for one process
 * (docs/integrators.md, "State and replicas"). Tables: `records` (one row per record, per organization
 * and one world row, keyed by (org, kind, id): rows.ts) and `rate` (one rate-limit window per key bucket).
 *
 * Durability: a write's handler runs, then the rows it changed (its tracker's report, tracker.ts) and
 * its organization's `org` row (id counters) go into the group transaction of this event-loop turn,
 * committed at its end with `synchronous = FULL` (the WAL is fsynced: one fsync for every write of the
 * turn) before their answers are sent; `kill -9` after a 2xx loses nothing. A read arriving while a
 * commit is under way waits for it, so nothing not yet durable is shown. Rate-limit counts are kept in
 * memory and written behind: every second, with every write and every control request, and on close
 * (`synchronous = NORMAL`: they survive a killed process, not a power cut); a `kill -9` loses at most the
 * last second of counts. The database is opened in exclusive locking mode: a second process on the same
 * file fails to start instead of diverging. A file of the earlier format (one document per
 * organization, table `state`) is migrated to rows when opened.
 *
 * Cost: a write stores the rows it changed (a create: its record and the `org` row), whatever the
 * organization's size, and shares its fsync with the writes of its turn; a read touches no database. Start-up streams the rows (`.iterate()`).
 */
import { randomInt } from 'node:crypto';
import Database from 'better-sqlite3';
import type { MockApp, StageTools } from '../app.ts';
import type { Handler, Reply } from '../http/context.ts';
import { ProblemError } from '../http/problem.ts';
import { rateDecision, rateLimited, windowStart } from '../pipeline/rate-limit.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { ANSWERED, type StageWork } from '../pipeline/stages.ts';
import { Clock } from '../store/clock.ts';
import { World } from '../store/world.ts';
import { applyWorldDoc, dropOrg, worldFromState, worldToDoc, type WorldDoc } from './document.ts';
import { documentFormat, SCHEMA } from './file-sql.ts';
import { isRead, type ControlEffect, type Persistence } from './persistence.ts';
import { loadOrgRows, orgRows, WORLD_KIND, WORLD_ORG, type StoredRow } from './rows.ts';
import { ChangeTracker, touchOrgAndKeys, type RowChange } from './tracker.ts';

/** How often changed rate-limit windows are written (ms): each write of a busy key covers its requests of a second. */
const RATE_FLUSH_MS = 1000;

/** The writes of one event-loop turn, committed together. */
interface Group { world: World; orgs: Set<string>; committed: Promise<void>; done: () => void; fail: (e: unknown) => void }

export class FileStore implements Persistence {
  readonly description: string;
  private readonly db: Database.Database;
  private readonly putRow: Database.Statement<[string, string, string, number, string]>;
  private readonly dropRow: Database.Statement<[string, string, string]>;
  private readonly putRate: Database.Statement<[string, number, number]>;
  /** Rate-limit windows by bucket (the stored ones at open), and the buckets changed since the last flush. */
  private readonly windows = new Map<string, { start: number; used: number }>();
  private readonly dirty = new Set<string>();
  private readonly flusher: NodeJS.Timeout;
  private readonly tracker = new ChangeTracker();
  private group?: Group;
  private readonly entropy = randomInt(2 ** 31);
  /** The insertion number of the last row stored: a row keeps its first one, so rows load in the order their Maps and Sets hold them. */
  private seq = 0;

  /** Opens (creating when absent) the database at `path`; throws when another process holds it. */
  constructor(path: string) {
    this.description = `file ${path}`;
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('locking_mode = EXCLUSIVE');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.seq = (this.db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM records').get() as { seq: number }).seq;
    this.putRow = this.db.prepare('INSERT INTO records (org, kind, id, seq, doc) VALUES (?, ?, ?, ?, ?) ON CONFLICT (org, kind, id) DO UPDATE SET doc = excluded.doc');
    this.dropRow = this.db.prepare('DELETE FROM records WHERE org = ? AND kind = ? AND id = ?');
    this.putRate = this.db.prepare('INSERT INTO rate (bucket, start, used) VALUES (?, ?, ?) ON CONFLICT (bucket) DO UPDATE SET start = excluded.start, used = excluded.used');
    for (const r of this.db.prepare('SELECT bucket, start, used FROM rate').all() as Array<{ bucket: string; start: number; used: number }>) this.windows.set(r.bucket, { start: r.start, used: r.used });
    this.flusher = setInterval(() => this.flushRates(), RATE_FLUSH_MS);
    this.flusher.unref();
  }

  /** Counts one request in `bucket`'s window starting at `start` (epoch ms); returns the window's count. */
  private takeRate(bucket: string, start: number): number {
    let w = this.windows.get(bucket);
    if (!w || start > w.start) this.windows.set(bucket, (w = { start, used: 0 }));
    this.dirty.add(bucket);
    return ++w.used;
  }

  /** Writes the changed rate-limit windows (one transaction, not fsynced). */
  private flushRates(): void {
    if (this.dirty.size === 0 || !this.db.open) return;
    this.db.transaction(() => this.writeRates())();
  }

  private writeRates(): void {
    for (const bucket of this.dirty) {
      const w = this.windows.get(bucket);
      if (w) this.putRate.run(bucket, w.start, w.used);
    }
    this.dirty.clear();
  }

  async open(initial: () => World): Promise<{ world: World; loaded: boolean }> {
    const old = documentFormat(this.db);
    if (old) {
      // The earlier format (one document per organization): its state, stored again as rows.
      const world = worldFromState(old, this.entropy);
      this.saveAll(world, () => this.db.exec('DROP TABLE state'));
      return { world, loaded: true };
    }
    const row = this.db.prepare('SELECT doc FROM records WHERE org = ? AND kind = ?').get(WORLD_ORG, WORLD_KIND) as { doc: string } | undefined;
    if (!row) {
      const world = initial();
      this.saveAll(world);
      return { world, loaded: false };
    }
    const doc = JSON.parse(row.doc) as WorldDoc;
    const world = new World(doc.seed, new Clock());
    applyWorldDoc(world, doc, this.entropy);
    loadOrgRows(world, this.db.prepare('SELECT org, kind, id, doc FROM records WHERE org <> ? ORDER BY org, seq').iterate(WORLD_ORG) as Iterable<StoredRow>);
    return { world, loaded: true };
  }

  stages(defaults: Readonly<StageWork>, tools: StageTools): Partial<StageWork> {
    const { limits, bucket, handlers } = tools;
    return {
      rateLimit: (ex: Exchange) => {
        const key = ex.key;
        const rate = (ex.rate = rateDecision(this.takeRate(bucket(key), windowStart(ex.now)), limits[key.prefix], ex.now));
        if (!rate.allowed) throw rateLimited(rate);
      },
      handle: (ex: Exchange) => {
        // A read waits for a commit under way: nothing not yet durable is ever shown.
        if (isRead(ex.method)) {
          const read = () => defaults.handle(ex);
          return this.group ? this.group.committed.then(read, read) : read();
        }
        const reply = this.write(ex, handlers[ex.op.operationId]!);
        if (!this.group) {
          tools.reply(ex, reply);
          return ANSWERED;
        }
        return this.group.committed.then(() => {
          tools.reply(ex, reply);
          return ANSWERED;
        });
      },
    };
  }

  control<T extends { status: number }>(app: MockApp, effect: ControlEffect, run: () => T): T {
    this.commitGroup(); // a control request (an export too) sees only what is durable
    if (effect.kind === 'org') {
      const org = app.world.orgs.get(effect.orgId);
      if (org) this.tracker.attach(org);
    }
    const out = run();
    this.flushRates();
    if (out.status >= 300 || effect.kind === 'read') {
      if (this.tracker.size) this.saveChanges(app.world);
      return out;
    }
    const world = app.world;
    if (effect.kind === 'world') this.durably(() => this.putRow.run(WORLD_ORG, WORLD_KIND, '', ++this.seq, JSON.stringify(worldToDoc(world))));
    else if (effect.kind === 'org') {
      const org = world.orgs.get(effect.orgId);
      if (org) touchOrgAndKeys(this.tracker, world, org);
      this.saveChanges(world);
    } else {
      this.saveAll(world);
      if (effect.reset) {
        this.db.exec('DELETE FROM rate');
        this.windows.clear();
        this.dirty.clear();
      }
    }
    return out;
  }

  async close(): Promise<void> {
    clearInterval(this.flusher);
    this.commitGroup();
    this.flushRates();
    this.db.close();
  }

  /**
   * Runs a write's handler and puts the rows it changed into the open group transaction (begun when
   * none is): the caller answers once the group is committed.
   */
  private write(ctx: Parameters<Handler>[0], handler: Handler): Reply {
    this.tracker.attach(ctx.org);
    let reply;
    try {
      reply = handler(ctx);
    } catch (e) {
      // A ProblemError is thrown before anything changes; anything else may have left a half-done change.
      if (!(e instanceof ProblemError) || this.tracker.size > 0) this.reloadOrg(ctx.world, ctx.org.id);
      throw e;
    }
    if (reply.status < 300) this.tracker.touch(ctx.org.id, 'org', ctx.org.id);
    if (this.tracker.size === 0) return reply;
    try {
      const group = this.openGroup(ctx.world);
      group.orgs.add(ctx.org.id);
      this.putChanges(this.tracker.changes(ctx.world));
    } catch (e) {
      this.failGroup(e);
      throw e;
    }
    return reply;
  }

  /**
   * The open group transaction, begun when none is: every write of this event-loop turn joins it, and
   * one commit with the WAL fsynced (`synchronous = FULL`) at the end of the turn makes them all durable
   * (a group commit: one fsync for many writes). Their answers are sent after it.
   */
  private openGroup(world: World): Group {
    if (this.group) return this.group;
    let done!: () => void;
    let fail!: (e: unknown) => void;
    const committed = new Promise<void>((d, f) => ((done = d), (fail = f)));
    committed.catch(() => undefined);
    this.db.pragma('synchronous = FULL');
    this.db.exec('BEGIN');
    const group: Group = (this.group = { world, orgs: new Set(), committed, done, fail });
    setImmediate(() => this.commitGroup());
    return group;
  }

  /** Commits the open group transaction (with the rate windows changed since the last flush). */
  private commitGroup(): void {
    const group = this.group;
    if (!group) return;
    try {
      this.writeRates();
      this.db.exec('COMMIT');
      this.group = undefined;
      this.db.pragma('synchronous = NORMAL');
      group.done();
    } catch (e) {
      this.failGroup(e);
    }
  }

  /** Rolls the open group back: its organizations are loaded again as last committed and its writes fail. */
  private failGroup(e: unknown): void {
    const group = this.group;
    if (!group) return;
    this.group = undefined;
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.db.pragma('synchronous = NORMAL');
    for (const orgId of group.orgs) this.reloadOrg(group.world, orgId);
    group.fail(e);
  }

  /** Stores the rows the tracker reported (one durable transaction). */
  private saveChanges(world: World): void {
    const changes = this.tracker.changes(world);
    this.durably(() => this.putChanges(changes));
  }

  private putChanges(changes: RowChange[]): void {
    for (const [org, kind, id, doc] of changes) {
      if (doc === undefined) this.dropRow.run(org, kind, id);
      else this.putRow.run(org, kind, id, ++this.seq, doc);
    }
  }

  /** Replaces every stored row by `world`'s (`also` runs in the same transaction). */
  private saveAll(world: World, also?: () => void): void {
    this.tracker.clear();
    this.durably(() => {
      this.db.exec('DELETE FROM records');
      this.putRow.run(WORLD_ORG, WORLD_KIND, '', ++this.seq, JSON.stringify(worldToDoc(world)));
      let pos = 0;
      for (const org of world.orgs.values()) for (const [kind, id, doc] of orgRows(world, org, pos++)) this.putRow.run(org.id, kind, id, ++this.seq, doc);
      also?.();
    });
  }

  /** Loads organization `orgId` as last committed (after a failed write left memory ahead of the file). */
  private reloadOrg(world: World, orgId: string): void {
    this.tracker.clear();
    const rows = this.db.prepare('SELECT org, kind, id, doc FROM records WHERE org = ? ORDER BY seq').all(orgId) as StoredRow[];
    if (rows.length > 0) loadOrgRows(world, rows);
    else dropOrg(world, orgId);
  }

  /** Runs `write` in one transaction committed with the WAL fsynced (after the open group's commit). */
  private durably(write: () => void): void {
    this.commitGroup();
    this.db.pragma('synchronous = FULL');
    try {
      this.db.transaction(() => {
        this.writeRates();
        write();
      })();
    } finally {
      this.db.pragma('synchronous = NORMAL');
    }
  }

}
