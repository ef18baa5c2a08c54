/**
 * The meters test kit: creating meters and readings through the API for tests and recipes, merging
 * the profile's `bodies.createMeter` / `bodies.createMeterReading` (fields a target requires that the
 * description does not show). `test` adds it as the `meters` fixture.
 */
import { test as base, expect } from '../fixtures.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import { anyAsset, anyLocation, expectCreated, precondition, uid } from '../lib/provision.ts';
import { expectSucceeded } from '../lib/expect-success.ts';
import type { Meter, MeterReading } from '../lib/api-types.ts';

/** The create body a test would send: a fresh name, attached to an asset unless the overrides attach it. */
export async function meterBody(api: ApiClient, profile: TargetProfile, overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const attach = 'location_id' in overrides || 'asset_id' in overrides ? {} : { asset_id: (await anyAsset(api, profile)).id };
  return { name: `CT meter ${uid()}`, ...profile.bodies.createMeter, ...attach, ...overrides };
}

/**
 * Creates a meter as a setup step (any 2xx with a body: the 201 itself is METER-002's, proven by its own
 * test) and returns its data. The body beyond asset/location is inferred: a target refusing it (400/422…)
 * without `bodies.createMeter` in the profile leaves the test not assessed.
 */
export async function createMeter(api: ApiClient, profile: TargetProfile, overrides: Record<string, unknown> = {}): Promise<Meter> {
  const response = precondition(await api.post('/meters', { json: await meterBody(api, profile, overrides) }), 'success', { inferredBody: profile.bodies.createMeter ? undefined : 'bodies.createMeter' });
  return response.body.data;
}

/** Records a reading (asserting 201 and its meter_id; its body is inferred, as createMeter's) and returns its data. */
export async function recordReading(api: ApiClient, profile: TargetProfile, meterId: string, reading: Record<string, unknown>): Promise<MeterReading> {
  const response = precondition(await api.post(`/meters/${meterId}/readings`, { json: { ...profile.bodies.createMeterReading, ...reading } }), 'success', { inferredBody: profile.bodies.createMeterReading ? undefined : 'bodies.createMeterReading' });
  expect(response.body.data.meter_id).toBe(meterId);
  return response.body.data;
}

/** The target refused a body the suite infers (400/422) and the profile supplies none (`supplied`). */
const refusedInferred = (response: ApiResponse, supplied: unknown) => !supplied && [400, 422].includes(response.status);

/**
 * A created meter and a reading on it, for tests that sample native responses (201 included): either is
 * undefined when the target refuses the inferred create body and the profile supplies none, so the
 * caller samples the records it can make instead; any other answer than 201 fails.
 */
export async function sampleMeter(api: ApiClient, profile: TargetProfile): Promise<{ meter?: ApiResponse; reading?: ApiResponse }> {
  const meter = await api.post('/meters', { json: await meterBody(api, profile) });
  if (refusedInferred(meter, profile.bodies.createMeter)) return {};
  expectSucceeded(meter);
  const reading = await api.post(`/meters/${meter.body.data.id}/readings`, { json: { value: 3, ...profile.bodies.createMeterReading } });
  if (refusedInferred(reading, profile.bodies.createMeterReading)) return { meter };
  expectSucceeded(reading);
  return { meter, reading };
}

export interface MeterKit {
  create(overrides?: Record<string, unknown>): Promise<Meter>;
  body(overrides?: Record<string, unknown>): Promise<Record<string, unknown>>;
  record(meterId: string, reading: Record<string, unknown>): Promise<MeterReading>;
  assetId(): Promise<string>;
  locationId(): Promise<string>;
}

export const test = base.extend<{ meters: MeterKit }>({
  meters: async ({ api, profile }, use) => {
    await use({
      create: (overrides) => createMeter(api, profile, overrides),
      body: (overrides) => meterBody(api, profile, overrides),
      record: (meterId, reading) => recordReading(api, profile, meterId, reading),
      assetId: async () => (await anyAsset(api, profile)).id,
      locationId: () => anyLocation(api, profile),
    });
  },
});

export { expect };
