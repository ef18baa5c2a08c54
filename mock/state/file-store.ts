/**
 * The file store (`--state ./mock-state.db`): SQLite through better-sqlite3, for one process
 * (docs/integrators.md, "State and replicas"). Tables: `state` (one JSON document per organization and
 * one for the world part, document.ts) and `rate` (one rate-limit window per key bucket).
 *
 * Durability: a write's handler runs, then its organization's whole document is committed with
 * `synchronous = FULL` (the WAL is fsynced) before the answer is sent; `kill -9` after a 2xx loses
 * nothing. Rate-limit counts are kept in memory and written behind: every 50 ms, with every write and
 * every control request, and on close (`synchronous = NORMAL`: they survive a killed process, not a power
 * cut); a `kill -9` loses at most the last 50 ms of counts. The database is opened in exclusive locking
 * mode: a second process on the same file fails to start instead of diverging.
 *
 * Cost: a write stores its organization's whole document, O(organization size) (figures in
 * docs/integrators.md); a read touches no database.
 */
import { randomInt } from 'node:crypto';
import Database from 'better-sqlite3';
import type { MockApp, StageTools } from '../app.ts';
import type { Handler, HandlerMap } from '../http/context.ts';
import { ProblemError } from '../http/problem.ts';
import { handleStep } from '../pipeline/handle.ts';
import { rateLimited } from '../pipeline/rate-limit.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import type { StageWork } from '../pipeline/stages.ts';
import type { World } from '../store/world.ts';
import { loadOrg, orgToDoc, worldFromState, worldToDoc, STATE_FORMAT, STATE_VERSION, type OrgDoc, type StateDocument, type WorldDoc } from './document.ts';
import { isRead, orgKey, WORLD_KEY, type ControlEffect, type Persistence } from './persistence.ts';
import { rateDecision, windowStart } from './rate.ts';

/** How often changed rate-limit windows are written (ms). */
const RATE_FLUSH_MS = 50;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, pos INTEGER NOT NULL, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rate (bucket TEXT PRIMARY KEY, start INTEGER NOT NULL, used INTEGER NOT NULL);
`;

export class FileStore implements Persistence {
  readonly description: string;
  private readonly db: Database.Database;
  private readonly upsertDoc: Database.Statement<[string, number, string]>;
  private readonly putRate: Database.Statement<[string, number, number]>;
  /** Rate-limit windows by bucket (the stored ones at open), and the buckets changed since the last flush. */
  private readonly windows = new Map<string, { start: number; used: number }>();
  private readonly dirty = new Set<string>();
  private readonly flusher: NodeJS.Timeout;

  /** Opens (creating when absent) the database at `path`; throws when another process holds it. */
  constructor(path: string) {
    this.description = `file ${path}`;
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('locking_mode = EXCLUSIVE');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.upsertDoc = this.db.prepare('INSERT INTO state (key, pos, doc) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET doc = excluded.doc');
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
    const doc = this.read();
    if (!doc) {
      const world = initial();
      this.saveAll(world);
      return { world, loaded: false };
    }
    return { world: worldFromState(doc, randomInt(2 ** 31)), loaded: true };
  }

  stages(_defaults: Readonly<StageWork>, tools: StageTools): Partial<StageWork> {
    const wrapped = Object.fromEntries(Object.entries(tools.handlers).map(([id, handler]) => [id, this.durable(handler)])) as HandlerMap;
    const { limits, bucket } = tools;
    return {
      rateLimit: (ex: Exchange) => {
        const key = ex.key;
        const rate = (ex.rate = rateDecision(this.takeRate(bucket(key), windowStart(ex.now)), limits[key.prefix], ex.now));
        if (!rate.allowed) throw rateLimited(rate);
      },
      handle: handleStep(wrapped, tools.reply),
    };
  }

  control<T extends { status: number }>(app: MockApp, effect: ControlEffect, run: () => T): T {
    const out = run();
    this.flushRates();
    if (out.status >= 300 || effect.kind === 'read') return out;
    const world = app.world;
    if (effect.kind === 'world') this.durably(() => this.upsertDoc.run(WORLD_KEY, 0, JSON.stringify(worldToDoc(world))));
    else if (effect.kind === 'org') {
      const org = world.orgs.get(effect.orgId);
      if (org) this.saveOrg(world, org.id);
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
    this.flushRates();
    this.db.close();
  }

  /** `handler`, storing its organization's document after a success of a write (before the answer is sent). */
  private durable(handler: Handler): Handler {
    return (ctx) => {
      if (isRead(ctx.op.method)) return handler(ctx);
      let reply;
      try {
        reply = handler(ctx);
      } catch (e) {
        // A ProblemError is thrown before anything changes; anything else may have left a half-done change.
        if (!(e instanceof ProblemError)) this.reloadOrg(ctx.world, ctx.org.id);
        throw e;
      }
      if (reply.status < 300) {
        try {
          this.saveOrg(ctx.world, ctx.org.id);
        } catch (e) {
          this.reloadOrg(ctx.world, ctx.org.id);
          throw e;
        }
      }
      return reply;
    };
  }

  private saveOrg(world: World, orgId: string): void {
    const doc = JSON.stringify(orgToDoc(world, world.orgs.get(orgId)!));
    this.durably(() => {
      const info = this.db.prepare('UPDATE state SET doc = ? WHERE key = ?').run(doc, orgKey(orgId));
      if (info.changes === 0) this.upsertDoc.run(orgKey(orgId), this.nextPos(), doc);
    });
  }

  private saveAll(world: World): void {
    this.durably(() => {
      this.db.exec('DELETE FROM state');
      this.upsertDoc.run(WORLD_KEY, 0, JSON.stringify(worldToDoc(world)));
      let pos = 1;
      for (const org of world.orgs.values()) this.upsertDoc.run(orgKey(org.id), pos++, JSON.stringify(orgToDoc(world, org)));
    });
  }

  private nextPos(): number {
    return (this.db.prepare('SELECT coalesce(max(pos), 0) + 1 AS pos FROM state').get() as { pos: number }).pos;
  }

  /** Loads organization `orgId` as last committed (after a failed write left memory ahead of the file). */
  private reloadOrg(world: World, orgId: string): void {
    const row = this.db.prepare('SELECT doc FROM state WHERE key = ?').get(orgKey(orgId)) as { doc: string } | undefined;
    if (row) loadOrg(world, JSON.parse(row.doc) as OrgDoc);
  }

  /** Runs `write` in one transaction committed with the WAL fsynced. */
  private durably(write: () => void): void {
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

  /** The stored state, or undefined when the file holds none yet. */
  private read(): (StateDocument & { world: WorldDoc }) | undefined {
    const rows = this.db.prepare('SELECT key, doc FROM state ORDER BY pos').all() as Array<{ key: string; doc: string }>;
    const world = rows.find((r) => r.key === WORLD_KEY);
    if (!world) return undefined;
    return { format: STATE_FORMAT, version: STATE_VERSION, world: JSON.parse(world.doc) as WorldDoc, organizations: rows.filter((r) => r !== world).map((r) => JSON.parse(r.doc) as OrgDoc) };
  }
}
