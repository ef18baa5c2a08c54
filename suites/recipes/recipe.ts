/**
 * Recipes: for each operation of the spec, how to build one valid request of it, creating through the
 * API whatever it needs. The scope matrix, tenant isolation and the operation-wide checks send these
 * requests with other keys; they never depend on seed data.
 */
import type { OperationId } from '../../contract/openapi.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiClient, RequestOptions } from '../lib/client.ts';

export interface PreparedRequest {
  method: string;
  path: string;
  options?: RequestOptions;
  /** The status the request gets with the right key (to check it got past scope and module checks). */
  expect: number;
  /**
   * Set when the body is the suite's inference of one the description does not show, and the profile
   * supplies none: what would supply it ("supply bodies.createMeter in the target profile"). A 400/422 to it is then not a failure.
   */
  inferredBody?: string;
}

/**
 * Records a recipe may build its request on instead of making its own, shared with other operations'
 * prepared requests of the worker (lib/prepared-cache.ts: a record leaves when a request naming it was
 * not refused or may have consumed it).
 */
export interface SharedRecords {
  /** The shared record of `kind` ("meter", "workOrder" …), else the one `make` creates (and shares). */
  record<T>(kind: string, make: () => Promise<T>): Promise<T>;
}

export interface RecipeContext {
  /** A full-scope client of the main organization, for setup. */
  api: ApiClient;
  profile: TargetProfile;
  /** Shared records (the worker's prepared cache); absent, the recipe makes every record it needs. */
  records?: SharedRecords;
}

/**
 * How a create operation's success makes a record recipes share: its kind, and the record read from the
 * response body as the kit that makes records of that kind returns it (undefined when the body names none).
 */
export interface CreatedRecord {
  kind: string;
  /** The record in a success body; each recipe types `body` as its operation's documented answer (Answered<…>: members may be absent). */
  record(body: unknown): unknown;
}

/** The record of `kind` the context shares, else a new one from `make` (a recipe's set-up request). */
export function sharedRecord<T>(ctx: RecipeContext, kind: string, make: () => Promise<T>): Promise<T> {
  return ctx.records ? ctx.records.record(kind, make) : make();
}

export type Recipe = (ctx: RecipeContext) => Promise<PreparedRequest>;

/** A family's recipes (suites/recipes/<family>.ts): keys must be operation ids of the spec. */
export type RecipeMapPart = Partial<Record<OperationId, Recipe>>;

/** A family's valid creates whose records recipes share, by operation id. */
export type CreatesPart = Partial<Record<OperationId, CreatedRecord>>;
