/**
 * The meters test kit: creating meters and readings through the API for tests and recipes, merging
 * the profile's `bodies.createMeter` / `bodies.createMeterReading` (fields a target requires that the
 * description does not show). `test` adds it as the `meters` fixture.
 */
import { test as base, expect } from '../fixtures.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import { anyAsset, anyLocation, expectCreated, precondition, uid } from '../lib/provision.ts';
import { arrange, expectApplied } from '../lib/arrange.ts';
import { expectSucceeded } from '../lib/expect-success.ts';
import type { Meter, MeterEnvelope, MeterReading, MeterReadingEnvelope } from '../lib/api-types.ts';

/** The create body a test would send: a fresh name, attached to an asset unless the overrides attach it. */
export async function meterBody(api: ApiClient, profile: TargetProfile, overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const attach = 'location_id' in overrides || 'asset_id' in overrides ? {} : { asset_id: (await anyAsset(api, profile)).id };
  return { name: `CT meter ${uid()}`, ...profile.bodies.createMeter, ...attach, ...overrides };
}

/**
 * Creates a meter as a setup step, arranged (suites/lib/arrange.ts: any failure leaves the test not
 * assessed): any 2xx with a body — the 201 itself is METER-002's, proven by its own test — whose meter
 * shows the `overrides` (the body is "not shown": a member the target accepts but ignores is no
 * precondition met). Returns its data.
 */
export function createMeter(api: ApiClient, profile: TargetProfile, overrides: Record<string, unknown> = {}): Promise<Meter> {
  return arrange('create a meter (POST /meters)', async () => {
    const response = precondition(await api.post<MeterEnvelope>('/meters', { json: await meterBody(api, profile, overrides) }), [201, 200, 202, 203], { inferredBody: profile.bodies.createMeter ? undefined : 'bodies.createMeter' });
    expectApplied(response.body.data, overrides, 'POST /meters');
    return response.body.data;
  });
}

/**
 * Records a reading, arranged (its body is "not shown", as createMeter's): a success whose reading names the
 * meter and shows the members sent (`reading_at`, `value`, …). Returns its data.
 */
export function recordReading(api: ApiClient, profile: TargetProfile, meterId: string, reading: Record<string, unknown>): Promise<MeterReading> {
  return arrange(`record a reading on meter ${meterId}`, async () => {
    const response = precondition(await api.post<MeterReadingEnvelope>(`/meters/${meterId}/readings`, { json: { ...profile.bodies.createMeterReading, ...reading } }), 'success', { inferredBody: profile.bodies.createMeterReading ? undefined : 'bodies.createMeterReading' });
    expectApplied(response.body.data, { meter_id: meterId, ...reading }, `POST /meters/${meterId}/readings`);
    return response.body.data;
  });
}

/** The target refused a body the suite infers (400/422) and the profile supplies none (`supplied`). */
const refusedInferred = (response: ApiResponse, supplied: unknown) => !supplied && [400, 422].includes(response.status);

/**
 * A created meter and a reading on it, arranged, for tests that sample native responses (201 included):
 * either is undefined when the target refuses the inferred create body and the profile supplies none, so
 * the caller samples the records it can make instead; any other answer than 201 leaves the test not
 * assessed (METER-002 and READ-002 prove the 201s).
 */
export function sampleMeter(api: ApiClient, profile: TargetProfile): Promise<{ meter?: ApiResponse<MeterEnvelope>; reading?: ApiResponse<MeterReadingEnvelope> }> {
  return arrange('create a meter and a reading to sample', async () => {
    const meter = await api.post<MeterEnvelope>('/meters', { json: await meterBody(api, profile) });
    if (refusedInferred(meter, profile.bodies.createMeter)) return {};
    expectSucceeded(meter);
    const reading = await api.post<MeterReadingEnvelope>(`/meters/${meter.body.data.id}/readings`, { json: { value: 3, ...profile.bodies.createMeterReading } });
    if (refusedInferred(reading, profile.bodies.createMeterReading)) return { meter };
    expectSucceeded(reading);
    return { meter, reading };
  });
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
      assetId: () => arrange('find an asset', async () => (await anyAsset(api, profile)).id),
      locationId: () => arrange('find a location', () => anyLocation(api, profile)),
    });
  },
});

export { expect };
