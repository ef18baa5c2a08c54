/**
 * The PostgreSQL store's tables and statements (postgres-store.ts; docs/integrators.md, "State and
 * replicas"). `mock_rows` holds rows.ts's rows keyed by (org, kind, id) with `revision` from one
 * sequence (taken under REV_LOCK, so revisions are in commit order and a replica that has seen
 * revision N has seen every row below it) and `seq` (a row's first insertion: Maps and Sets load in
 * their order); `doc` null is a deletion. `mock_rate` holds one rate-limit window per key bucket.
 */
import pg from 'pg';
import type { World } from '../store/world.ts';
import type { OrgDoc, StateDocument, WorldDoc } from './document.ts';
import { orgRows, WORLD_KIND, WORLD_ORG } from './rows.ts';
import type { RowChange } from './tracker.ts';

/** Rows per statement when everything is written. */
const BATCH = 1000;

export const SCHEMA = `
CREATE SEQUENCE IF NOT EXISTS mock_revision;
CREATE SEQUENCE IF NOT EXISTS mock_seq;
CREATE TABLE IF NOT EXISTS mock_rows (org text COLLATE "C" NOT NULL, kind text COLLATE "C" NOT NULL, id text COLLATE "C" NOT NULL, seq bigint NOT NULL, revision bigint NOT NULL, doc text, PRIMARY KEY (org, kind, id));
CREATE INDEX IF NOT EXISTS mock_rows_revision ON mock_rows (revision);
CREATE INDEX IF NOT EXISTS mock_rows_seq ON mock_rows (org, seq);
CREATE TABLE IF NOT EXISTS mock_rate (bucket text PRIMARY KEY, start bigint NOT NULL, used integer NOT NULL);
`;

/** Advisory lock ids: schema creation and first seeding; every write (shared) against writes of everything (exclusive); revision numbering. */
export const INIT_LOCK = 0x6d6d7331;
export const ALL_LOCK = 0x6d6d7332;
export const REV_LOCK = 0x6d6d7333;

/** Every row (deletions included: the highest revision), by organization in insertion order. */
export const ALL_ROWS = 'SELECT org, kind, id, revision, doc FROM mock_rows ORDER BY org, seq';

/** Stores rows ($1 orgs, $2 kinds, $3 ids, $4 docs, null: deleted) with new revisions; a row deleted and stored again goes last. */
export const PUT_ROWS = `INSERT INTO mock_rows (org, kind, id, seq, revision, doc)
  SELECT o, k, i, nextval('mock_seq'), nextval('mock_revision'), d FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u(o, k, i, d)
  ON CONFLICT (org, kind, id) DO UPDATE SET doc = excluded.doc, revision = excluded.revision, seq = CASE WHEN mock_rows.doc IS NULL THEN excluded.seq ELSE mock_rows.seq END
  RETURNING revision`;

/** A row as read back. */
export interface PgRow { org: string; kind: string; id: string; revision: string; doc: string | null }

/** The state of a database of the earlier format (table `mock_state`, one JSON document per organization), or undefined. */
export async function documentFormat(client: pg.PoolClient): Promise<(StateDocument & { world: WorldDoc }) | undefined> {
  const exists = (await client.query<{ t: string | null }>("SELECT to_regclass('mock_state')::text AS t")).rows[0]!.t;
  if (!exists) return undefined;
  const rows = (await client.query<{ key: string; doc: string }>('SELECT key, doc FROM mock_state ORDER BY pos')).rows;
  const world = rows.find((r) => r.key === 'world');
  if (!world) return undefined;
  return { format: 'mms-mock-state', version: 1, world: JSON.parse(world.doc) as WorldDoc, organizations: rows.filter((r) => r !== world).map((r) => JSON.parse(r.doc) as OrgDoc) };
}

/** Runs `task` after every earlier task queued under `key` in `queues` has settled (one process's writes to one lock scope, in order). */
export function queued<T>(queues: Map<string, Promise<unknown>>, key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(task, task);
  const settled = next.then(() => undefined, () => undefined);
  queues.set(key, settled);
  settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

/** Stores `changes` with new revisions taken under REV_LOCK (inside the caller's transaction); returns the revisions. */
export async function putRows(client: pg.PoolClient, changes: RowChange[]): Promise<number[]> {
  await client.query('SELECT pg_advisory_xact_lock($1)', [REV_LOCK]);
  const values = [changes.map((c) => c[0]), changes.map((c) => c[1]), changes.map((c) => c[2]), changes.map((c) => c[3] ?? null)];
  const r = await client.query<{ revision: string }>({ name: 'mock_put_rows', text: PUT_ROWS, values });
  return r.rows.map((x) => Number(x.revision));
}

/** Replaces every stored row by `world`'s (its world row `worldRow`), BATCH rows a statement; returns the highest revision written. */
export async function putAll(client: pg.PoolClient, world: World, worldRow: string): Promise<number> {
  await client.query('DELETE FROM mock_rows');
  let batch: RowChange[] = [[WORLD_ORG, WORLD_KIND, '', worldRow]];
  let top = 0;
  const flush = async (): Promise<void> => {
    for (const revision of await putRows(client, batch)) top = Math.max(top, revision);
    batch = [];
  };
  let pos = 0;
  for (const org of world.orgs.values()) {
    for (const [kind, id, doc] of orgRows(world, org, pos)) {
      batch.push([org.id, kind, id, doc]);
      if (batch.length >= BATCH) await flush();
    }
    pos++;
  }
  if (batch.length) await flush();
  return top;
}

/** A pool on `url` with the tables created when absent; rejects with the driver's error when it cannot connect. */
export async function connectPool(url: string): Promise<pg.Pool> {
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
  return pool;
}

/** What a job of a transaction gave: its result or its error. */
export type Outcome<T> = { ok: T } | { err: unknown };

/** The result of `o`, or its error thrown. */
export function unwrap<T>(o: Outcome<T>): T {
  if ('err' in o) throw o.err;
  return o.ok;
}

/**
 * Jobs waiting for a lock scope (`key`), run together: a job added while its scope's batch waits joins
 * it; `runAll` runs a batch (after this process's earlier tasks of that scope, `queued`) and gives each
 * job's outcome; a rejection fails every job of the batch.
 */
export class Batches<R> {
  private readonly waiting = new Map<string, Array<{ job: () => R; done: (o: Outcome<R>) => void }>>();

  constructor(private readonly queues: Map<string, Promise<unknown>>, private readonly runAll: (key: string, jobs: Array<() => R>) => Promise<Array<Outcome<R>>>) {}

  add(key: string, job: () => R): Promise<R> {
    return new Promise<Outcome<R>>((done) => {
      const waiting = this.waiting.get(key);
      if (waiting) return void waiting.push({ job, done });
      this.waiting.set(key, [{ job, done }]);
      void queued(this.queues, `org:${key}`, async () => {
        const batch = this.waiting.get(key)!;
        this.waiting.delete(key);
        const outcomes = await this.runAll(key, batch.map((b) => b.job)).catch((err: unknown) => batch.map(() => ({ err })));
        batch.forEach((b, i) => b.done(outcomes[i]!));
      });
    }).then(unwrap);
  }
}

/**
 * BEGIN with the locks of a write scope: everything (ALL_LOCK exclusive), or ALL_LOCK shared and the
 * row of the world part or of one organization FOR UPDATE. `lit` quotes a literal.
 */
export function lockStatement(scope: { kind: 'all' } | { kind: 'world' } | { kind: 'org'; orgId: string }, lit: (value: string) => string): string {
  if (scope.kind === 'all') return `BEGIN; SELECT pg_advisory_xact_lock(${ALL_LOCK})`;
  const [org, kind, id] = scope.kind === 'org' ? [scope.orgId, 'org', scope.orgId] : [WORLD_ORG, WORLD_KIND, ''];
  return `BEGIN; SELECT pg_advisory_xact_lock_shared(${ALL_LOCK}); SELECT 1 FROM mock_rows WHERE org = ${lit(org)} AND kind = ${lit(kind)} AND id = ${lit(id)} FOR UPDATE`;
}
