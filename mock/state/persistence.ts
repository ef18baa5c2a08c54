/**
 * The mock's state stores (docs/integrators.md, "State and replicas"). The in-memory World stays the
 * working copy; a persistent store keeps it as rows keyed by (organization, kind, id) (rows.ts), writes
 * the rows a request changed (tracker.ts) and is wrapped around the request:
 * - `memory` (the default): no store, no hook — the request path is exactly the default stages;
 * - a file (SQLite, file-store.ts): one process; every acknowledged write is committed before its answer;
 * - `postgres://…` (postgres-store.ts): replicas; every request catches up with newer rows, writes
 *   run under the organization's row lock, rate-limit windows are counted in the database.
 */
import type { MockApp, StageTools } from '../app.ts';
import type { StageWork } from '../pipeline/stages.ts';
import type { World } from '../store/world.ts';

/** What a control request changes, so a store locks, catches up and writes just that. */
export type ControlEffect =
  | { kind: 'read' }
  | { kind: 'world' }
  | { kind: 'org'; orgId: string }
  /** Everything (reset, imports, new organizations); `reset` also forgets rate-limit windows. */
  | { kind: 'all'; reset?: boolean };

export interface Persistence {
  /** How the store is named in the start banner (`file ./mock-state.db`, `postgres host/db`). */
  readonly description: string;
  /**
   * The world to start from: the stored one, or `initial()` (stored first) when the store is empty.
   * `loaded` says which. Rejects when the store cannot be opened (one line, for the CLI).
   */
  open(initial: () => World): Promise<{ world: World; loaded: boolean }>;
  /** The stages this store replaces (app.ts `stages`). */
  stages(defaults: Readonly<StageWork>, tools: StageTools): Partial<StageWork>;
  /**
   * Runs a control request's `run` with the state it reads up to date and stores what it changed when it
   * answered a success (status < 300).
   */
  control<T extends { status: number }>(app: MockApp, effect: ControlEffect, run: () => T): T | Promise<T>;
  close(): Promise<void>;
}

/** Whether a request method never changes state (its handler runs without a store write). */
export function isRead(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}
