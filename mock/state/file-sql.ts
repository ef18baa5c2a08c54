/**
 * The file store's tables (file-store.ts; docs/integrators.md, "State and replicas"): `records` holds
 * rows.ts's rows keyed by (org, kind, id) with `seq`, a row's first insertion (Maps and Sets load in
 * their order); `rate` one rate-limit window per key bucket. And the reader of the earlier format.
 */
import type Database from 'better-sqlite3';
import type { OrgDoc, StateDocument, WorldDoc } from './document.ts';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS records (org TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, doc TEXT NOT NULL, PRIMARY KEY (org, kind, id)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_seq ON records (org, seq);
CREATE TABLE IF NOT EXISTS rate (bucket TEXT PRIMARY KEY, start INTEGER NOT NULL, used INTEGER NOT NULL);
`;

/** The state of a file of the earlier format (table `state`, one JSON document per organization), or undefined. */
export function documentFormat(db: Database.Database): (StateDocument & { world: WorldDoc }) | undefined {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'state'").get()) return undefined;
  const rows = db.prepare('SELECT key, doc FROM state ORDER BY pos').all() as Array<{ key: string; doc: string }>;
  const world = rows.find((r) => r.key === 'world');
  if (!world) return undefined;
  return { format: 'mms-mock-state', version: 1, world: JSON.parse(world.doc) as WorldDoc, organizations: rows.filter((r) => r !== world).map((r) => JSON.parse(r.doc) as OrgDoc) };
}
