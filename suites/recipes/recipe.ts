/**
 * Recipes: for each operation of the spec, how to build one valid request of it, creating through the
 * API whatever it needs. The scope matrix, tenant isolation and the operation-wide checks send these
 * requests with other keys; they never depend on seed data.
 */
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

export interface RecipeContext {
  /** A full-scope client of the main organization, for setup. */
  api: ApiClient;
  profile: TargetProfile;
}

export type Recipe = (ctx: RecipeContext) => Promise<PreparedRequest>;
