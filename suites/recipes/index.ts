/** Every operation's recipe, by operationId (one file per family), and how the suite looks one up and sends it. */
import type { Operation, OperationId } from '../../contract/openapi.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import { expect } from '@playwright/test';
import { expectSucceeded } from '../lib/expect-success.ts';
import { notAssessed } from '../lib/needs.ts';
import { arranging } from '../lib/arrange.ts';
import type { CreatedRecord, PreparedRequest, Recipe } from './recipe.ts';
import type { PreparedCache } from '../lib/prepared-cache.ts';
import { meterCreates, meterRecipes } from './meters.ts';
import { workOrderRecipes } from './work-orders.ts';
import { expenseRecipes } from './expenses.ts';
import { partsCreates, partsRecipes } from './parts.ts';
import { workRequestCreates, workRequestRecipes } from './work-requests.ts';
import { customFieldCreates, customFieldRecipes } from './custom-fields.ts';
import { identifierCreates, identifierRecipes } from './identifiers.ts';
import { assetRecipes } from './assets.ts';

/**
 * Every recipe runs arranged (suites/lib/arrange.ts): a failure while it builds its request (a record it
 * could not create, a route the target lacks) leaves the test not assessed, never failed.
 */
const arranged = <K extends string>(recipes: Record<K, Recipe>): Record<K, Recipe> =>
  Object.fromEntries(Object.entries<Recipe>(recipes).map(([id, recipe]) => [id, arranging(`prepare a valid ${id} request`, recipe)])) as Record<K, Recipe>;

export const RECIPES: Record<OperationId, Recipe> = arranged({
  ...meterRecipes,
  ...workOrderRecipes,
  ...expenseRecipes,
  ...partsRecipes,
  ...workRequestRecipes,
  ...customFieldRecipes,
  ...identifierRecipes,
  ...assetRecipes,
});

/**
 * The records valid creates make that recipes share, by operationId. Not work orders: the create recipe's
 * body is not the one kits/work-orders.ts `createWorkOrder` sends (it sets a priority).
 */
const CREATES: Partial<Record<OperationId, CreatedRecord>> = { ...meterCreates, ...partsCreates, ...workRequestCreates, ...customFieldCreates, ...identifierCreates };

/**
 * The shared record (its kind, and the record as recipes use it) that `response` to the operation's
 * prepared valid create made: when the operation makes one, the response has the status the request
 * expects, and its body names the record; else undefined.
 */
export function createdRecord(operationId: OperationId, prepared: PreparedRequest, response: ApiResponse): { kind: string; record: unknown } | undefined {
  const creates = CREATES[operationId];
  if (!creates || response.status !== prepared.expect) return undefined;
  const record = creates.record(response.body);
  return record === undefined ? undefined : { kind: creates.kind, record };
}

/**
 * After a valid request taken from `cache` (`PreparedCache.take`) got `response`: gives the request back
 * when a read left its record as it was, and shares the record a valid create made.
 */
export function settleTaken(cache: PreparedCache, operationId: OperationId, request: PreparedRequest, response: ApiResponse): void {
  cache.returnIfUnchanged(operationId, request, response.status);
  const created = createdRecord(operationId, request, response);
  if (created) cache.share(created.kind, created.record);
}

/** The operation's recipe: every operation of the spec has one (RECIPES is keyed by them all). */
export function recipeOf(op: Operation): Recipe {
  return RECIPES[op.operationId];
}

/** Sends a prepared request with `client` (its `expect` is the caller's to check). */
export function sendPrepared(client: ApiClient, prepared: PreparedRequest): Promise<ApiResponse> {
  return client.send(prepared.method, prepared.path, prepared.options);
}

/**
 * Asserts the valid request got its `expect`ed status — or, with `success`, any 2xx: where the request
 * arranges the test rather than proves its status (that is SPEC-007's, `a valid request gets its
 * documented success status`). A 400/422 to a body the suite infers (`inferredBody`) makes the test not
 * assessed instead (provision.ts `precondition`).
 */
export function expectPrepared(prepared: PreparedRequest, response: ApiResponse, message: string, expected: 'exact' | 'success' = 'exact'): void {
  const ok = expected === 'success' ? response.status >= 200 && response.status < 300 : response.status === prepared.expect;
  if (prepared.inferredBody && !ok && [400, 422].includes(response.status)) {
    notAssessed(`precondition not met: ${prepared.method} ${prepared.path} answered ${response.status} to the body the suite infers (the description does not show it; ${prepared.inferredBody})`);
  }
  if (expected === 'success') expectSucceeded(response, message);
  else expect(response.status, message).toBe(prepared.expect);
}

export type { CreatedRecord, PreparedRequest, Recipe, RecipeContext, SharedRecords } from './recipe.ts';
export { sharedRecord } from './recipe.ts';
