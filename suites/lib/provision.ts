/**
 * Creating what a test needs through the API, never from seed data it did not make (docs/design.md §5: every test creates the data it needs).
 * Records the API cannot create come from the profile's fixtures (lib/needs.ts).
 */
import { expect, test } from '@playwright/test';
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiClient, ApiResponse } from './client.ts';
import type { AssetList } from './api-types.ts';
import { notAssessed } from './needs.ts';
import { expectProblem } from './expect-problem.ts';
import { expectSucceeded } from './expect-success.ts';

let counter = 0;

/** A string unique within the run: worker, time and a counter (for names and idempotency keys). */
export function uid(): string {
  return `${test.info().workerIndex}x${Date.now().toString(36)}x${(counter++).toString(36)}`;
}

/**
 * Asserts a creation and returns the response, with the body in the failure message: any 2xx when it
 * arranges a test (the create's own status is SPEC-007's and its family's create requirement, not every
 * test's that needs a record: ./expect-success.ts), or exactly `status` when the test proves it.
 */
export function expectCreated<T>(response: ApiResponse<T>, status?: number): ApiResponse<T> {
  if (status === undefined) expectSucceeded(response, `${response.exchange.method} ${response.exchange.path}`);
  else expect(response.status, `${response.exchange.method} ${response.exchange.path}: ${response.text.slice(0, 400)}`).toBe(status);
  return response;
}

/** The answers that say "not this shape" rather than "broken": the target does not offer what was inferred. */
const UNSUPPORTED = [400, 404, 405, 415, 422, 501];

/**
 * A setup step's response (docs/design.md §5: preconditions are never failures). `expected` defaults to
 * any 2xx (`'success'`): an arranging step needs its record, not a particular success status. When its
 * status is not `expected`, and the request went through an `x-inferred` operation (any status) or sent
 * a body whose shape the description does not show (`inferredBody`, e.g. the profile supplies no `bodies.*` for it;
 * a 400/404/405/415/422/501), the test is skipped as not assessed with "precondition not met: POST
 * /assets answered 404 (…)". A stated operation answering otherwise fails the test like expectCreated —
 * unless the call runs inside `arrange` (lib/arrange.ts; every kit's set-up does), which makes that not
 * assessed too: outside it, `precondition` is an act whose inferred body may be refused.
 */
export function precondition<T>(response: ApiResponse<T>, expected: number | number[] | 'success' = 'success', options: { inferredBody?: string } = {}): ApiResponse<T> {
  const x = response.exchange;
  if (expected === 'success' ? response.status >= 200 && response.status < 300 : [expected].flat().includes(response.status)) return response;
  if (x.operation?.inferred) notAssessed(`precondition not met: ${x.method} ${x.path} answered ${response.status} (an operation the description does not show)`);
  if (options.inferredBody && UNSUPPORTED.includes(response.status)) {
    notAssessed(`precondition not met: ${x.method} ${x.path} answered ${response.status} to the body the suite infers (the description does not show it; supply ${options.inferredBody} in the target profile)`);
  }
  return expectCreated(response, expected === 'success' ? undefined : [expected].flat()[0]);
}

/**
 * A refusal the test expects (`status` problem details) to a request whose body the description does not
 * show: when the profile supplies no such body (`missingEntry`, e.g. `bodies.createMeter`) and the target
 * answers 400/422, it may be refusing the suite's inferred shape before looking the records up (the
 * description orders neither): the test is not assessed. With the profile's body, a 400 fails as usual.
 */
export function expectRefusedDespiteInferredBody(response: ApiResponse, status: number, missingEntry: string | undefined): void {
  const x = response.exchange;
  if (missingEntry && response.status !== status && [400, 422].includes(response.status)) {
    notAssessed(`precondition not met: ${x.method} ${x.path} answered ${response.status} to the body the suite infers before it could answer ${status} (supply ${missingEntry} in the target profile)`);
  }
  expectProblem(response, status);
}

/**
 * Runs setup through an operation whose route or body is inferred: a failure there makes the test
 * "not assessed" (never failed), because the description does not oblige the target to offer it.
 */
export async function viaInferred<T>(what: string, step: (client: ApiClient) => Promise<ApiResponse<T>>, client: ApiClient, expected = [200, 201]): Promise<ApiResponse<T>> {
  const response = await step(client);
  const x = response.exchange;
  if (!expected.includes(response.status)) notAssessed(`precondition not met: ${x.method} ${x.path} answered ${response.status} — the target does not support ${what} (an operation the description does not show)`);
  return response;
}

/** An asset of the key's organization: the profile's fixture, else the first of GET /assets. */
export async function anyAsset(api: ApiClient, profile?: TargetProfile): Promise<{ id: string; location_id?: string | null }> {
  if (profile?.fixtures.assetId) return { id: profile.fixtures.assetId };
  const page = await api.get<AssetList>('/assets', { query: { limit: 1 } });
  expect(page.status).toBe(200);
  const asset = page.body.data[0];
  if (!asset) notAssessed('the organization has no asset (provision one, or set fixtures.assetId)');
  return asset;
}

/** A location of the key's organization: the profile's fixture, else one an asset names. */
export async function anyLocation(api: ApiClient, profile?: TargetProfile): Promise<string> {
  if (profile?.fixtures.locationId) return profile.fixtures.locationId;
  const page = await api.get<AssetList>('/assets', { query: { limit: 100 } });
  const withLocation = (page.body?.data ?? []).find((a) => a.location_id);
  if (!withLocation) notAssessed('no location found (set fixtures.locationId)');
  return withLocation.location_id!;
}
