/**
 * Creating what a test needs through the API, never from seed data it did not make (design.md §5: every test creates the data it needs).
 * Records the API cannot create come from the profile's fixtures (lib/needs.ts).
 */
import { expect, test } from '@playwright/test';
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiClient, ApiResponse } from './client.ts';
import { notAssessed } from './needs.ts';

let counter = 0;

/** A string unique within the run: worker, time and a counter (for names and idempotency keys). */
export function uid(): string {
  return `${test.info().workerIndex}x${Date.now().toString(36)}x${(counter++).toString(36)}`;
}

/** Asserts a 2xx creation and returns the response, with the body in the failure message. */
export function expectCreated(response: ApiResponse, status = 201): ApiResponse {
  expect(response.status, `${response.exchange.method} ${response.exchange.path}: ${response.text.slice(0, 400)}`).toBe(status);
  return response;
}

/**
 * Runs setup through an operation whose route or body is inferred: a failure there makes the test
 * "not assessed" (never failed), because the description does not oblige the target to offer it.
 */
export async function viaInferred<T>(what: string, step: (client: ApiClient) => Promise<ApiResponse<T>>, client: ApiClient, expected = [200, 201]): Promise<ApiResponse<T>> {
  const response = await step(client);
  if (!expected.includes(response.status)) notAssessed(`the target does not support ${what} (inferred operation answered ${response.status})`);
  return response;
}

/** An asset of the key's organization: the profile's fixture, else the first of GET /assets. */
export async function anyAsset(api: ApiClient, profile?: TargetProfile): Promise<{ id: string; location_id?: string | null }> {
  if (profile?.fixtures.assetId) return { id: profile.fixtures.assetId };
  const page = await api.get('/assets', { query: { limit: 1 } });
  expect(page.status).toBe(200);
  const asset = page.body.data[0];
  if (!asset) notAssessed('the organization has no asset (provision one, or set fixtures.assetId)');
  return asset;
}

/** A location of the key's organization: the profile's fixture, else one an asset names. */
export async function anyLocation(api: ApiClient, profile?: TargetProfile): Promise<string> {
  if (profile?.fixtures.locationId) return profile.fixtures.locationId;
  const page = await api.get('/assets', { query: { limit: 100 } });
  const withLocation = (page.body?.data ?? []).find((a: { location_id?: string }) => a.location_id);
  if (!withLocation) notAssessed('no location found (set fixtures.locationId)');
  return withLocation.location_id;
}
