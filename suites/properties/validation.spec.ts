/**
 * Properties of request validation (Errors: 400 `validation_error`; Endpoints › Work-order expenses,
 * Meters, Custom fields, Work-order parts; Limits): random invalid bodies and ids get 400
 * `validation_error` and change nothing (the state is read before and after); random valid bodies get
 * 2xx and read back as sent. Meter and reading bodies are inferred by spec/openapi.yaml: their valid
 * shapes are tagged inferred; the stated rules (one attachment, a numeric value, a date-time) are must.
 */
import type { RequirementId } from '../../contract/catalog.ts';
import { proves } from '../lib/proves.ts';
import { test, expect } from '../kits/work-orders.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { assertProperty, fc } from '../lib/property.ts';
import { walkPages } from '../lib/walk-pages.ts';
import { need } from '../lib/needs.ts';
import { anyAsset, anyLocation, uid } from '../lib/provision.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import { createMeter } from '../kits/meters.ts';
import type { ApiClient } from '../lib/client.ts';
import type { Asset, AssetList, ExpenseEntry, ExpenseList, Meter, MeterEnvelope, MeterReading, MeterReadingEnvelope, MeterReadingList, PartsSection } from '../lib/api-types.ts';

// 5 runs per property (8 before, 12 before that): fast-check draws each generator's edge cases first, and every
// rule here also has its own conformance test with the fixed inputs the description names, which the self-test's
// mutants of these rules fail (the suite's request budget, bench/README.md).
const RUNS = 5;
const MAX_INT = 2147483647;
const text = (minLength: number, maxLength: number) => fc.string({ minLength, maxLength });
/** Numbers that survive a JSON round trip unchanged (no -0). */
const amount = fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 100);
/** JSON values that are not numbers. */
const notNumber = fc.oneof(text(0, 12), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.integer(), { maxKeys: 2 }));
/** JSON values that are not strings. */
const notString = fc.oneof(fc.integer(), fc.boolean(), fc.array(text(0, 5), { maxLength: 2 }), fc.constant({ value: 1 }));
const notDateTime = fc.oneof(fc.constantFrom('yesterday', '2024-13-01T00:00:00Z', '2024-01-01', '12:00', '2024-01-01 10:00:00', '', '2024-02-30T10:00:00Z'), fc.stringMatching(/^[a-z]{1,12}$/));

/**
 * The last asset of the organization, which other tests leave alone, and a location: one an asset names,
 * else the profile's `fixtures.locationId` (asset records need not carry `location_id`: it is not listed).
 */
async function quietAttachments(api: ApiClient, profile: TargetProfile): Promise<{ assetId: string; locationId: string }> {
  const asset = (await api.get<AssetList>('/assets', { query: { limit: 1, direction: 'desc' } })).body.data[0]!;
  expect(asset, 'an asset').toBeTruthy();
  const located = (await walkPages<Asset>(api, '/assets', { limit: 100 })).items.find((a) => a.location_id);
  return { assetId: asset.id, locationId: located?.location_id ?? (await anyLocation(api, profile)) };
}

test.describe('invalid bodies and ids are refused and change nothing', () => {
  test('expense POST bodies outside the stated rules', { tag: ['@EXP-004', '@EXP-005', '@EXP-006', '@EXP-007', '@EXP-008'] }, async ({ api, profile, workOrders }) => {
    const wo = await workOrders.create();
    const path = `/work-orders/${wo.id}/other-costs`;
    const valid = { user_id: need(profile, 'fixtures.activeUserId'), type: 'other', amount_minor: 500, description: 'CT valid base' };
    // Each kind of invalid body carries the requirement it breaks, so a refusal missing fails only that one.
    const breaking = (requirement: RequirementId, bodies: fc.Arbitrary<Record<string, unknown>>) => bodies.map((body) => ({ requirement, body }));
    const invalid = fc.oneof(
      breaking('EXP-004', fc.tuple(fc.stringMatching(/^[a-zA-Z_]{1,12}$/).filter((k) => !(k in valid)), fc.jsonValue()).map(([k, v]) => ({ ...valid, [k]: v }))),
      breaking('EXP-005', fc.constantFrom('user_id', 'type', 'amount_minor').map((k) => Object.fromEntries(Object.entries(valid).filter(([key]) => key !== k)))),
      breaking('EXP-005', fc.oneof(fc.constant(''), notString).map((user_id) => ({ ...valid, user_id }))),
      breaking('EXP-006', fc.oneof(fc.string().filter((t) => !['labor', 'travel', 'other'].includes(t)), notString).map((type) => ({ ...valid, type }))),
      breaking('EXP-007', fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: MAX_INT + 1, max: Number.MAX_SAFE_INTEGER }), fc.double({ min: 0.01, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)), notNumber).map((amount_minor) => ({ ...valid, amount_minor }))),
      breaking('EXP-008', fc.oneof(fc.integer({ min: 5001, max: 6000 }).map((n) => 'd'.repeat(n)), fc.integer(), fc.boolean()).map((description) => ({ ...valid, description }))),
    );
    const before = (await api.get<ExpenseList>(path)).body.items.map((e: { id: string }) => e.id);
    await assertProperty(fc.asyncProperty(invalid, async ({ requirement, body }) => {
      const response = await api.post(path, { json: body });
      expect(response.status, proves([requirement], 'an expense body breaking it answers 400')).toBe(400);
      expectProblem(response, 400, 'validation_error');
    }), RUNS);
    expect((await api.get<ExpenseList>(path)).body.items.map((e: { id: string }) => e.id), 'no entry recorded').toEqual(before);
  });

  test('meter creates with both or neither attachment', { tag: ['@METER-003', '@METER-004'] }, async ({ api, profile }) => {
    const { assetId, locationId } = await quietAttachments(api, profile);
    const names: string[] = [];
    await assertProperty(fc.asyncProperty(fc.constantFrom('both', 'neither'), fc.option(text(0, 40), { nil: undefined }), async (attach, description) => {
      const name = `CT invalid meter ${uid()}`;
      names.push(name);
      const { asset_id: _a, location_id: _l, ...rest } = profile.bodies.createMeter ?? {};
      const body = { ...rest, name, ...(description === undefined ? {} : { description }), ...(attach === 'both' ? { asset_id: assetId, location_id: locationId } : {}) };
      expectProblem(await api.post('/meters', { json: body }), 400, 'validation_error');
    }), RUNS);
    const created = (await walkPages<Meter>(api, '/meters', { limit: 100 })).items.filter((m) => names.includes(m.name));
    expect(created, 'no meter created').toEqual([]);
  });

  test('meter updates with a field of the wrong type', { tag: ['@METER-009'] }, async ({ api, profile }) => {
    const meter = await createMeter(api, profile);
    const invalid = fc.oneof(
      notString.map((name) => ({ name })),
      notString.filter((v) => v !== null).map((description) => ({ description })),
      fc.oneof(notNumber, fc.double({ min: 1.01, max: 100, noNaN: true }).filter((n) => !Number.isInteger(n))).filter((v) => v !== null).map((frequency_interval) => ({ frequency_interval })),
      fc.tuple(fc.constantFrom('min_value', 'max_value', 'rollover_value'), notNumber.filter((v) => v !== null)).map(([k, v]) => ({ [k]: v })),
      notString.map((asset_id) => ({ asset_id })),
    );
    const before = (await api.get<MeterEnvelope>(`/meters/${meter.id}`)).body.data;
    await assertProperty(fc.asyncProperty(invalid, async (body) => {
      expectProblem(await api.patch(`/meters/${meter.id}`, { json: body }), 400, 'validation_error');
    }), RUNS);
    expect((await api.get<MeterEnvelope>(`/meters/${meter.id}`)).body.data, 'the meter is unchanged').toEqual(before);
  });

  test('reading creates with a value not a number or a malformed reading_at', { tag: ['@READ-005'] }, async ({ api, profile }) => {
    const meter = await createMeter(api, profile);
    const base = { ...profile.bodies.createMeterReading };
    const invalid = fc.oneof(
      notNumber.map((value) => ({ ...base, value })),
      notDateTime.map((reading_at) => ({ ...base, value: 1, reading_at })),
    );
    const path = `/meters/${meter.id}/readings`;
    const before = (await api.get<MeterReadingList>(path)).body.data.map((r: { id: string }) => r.id);
    await assertProperty(fc.asyncProperty(invalid, async (body) => {
      expectProblem(await api.post(path, { json: body }), 400, 'validation_error');
    }), RUNS);
    expect((await api.get<MeterReadingList>(path)).body.data.map((r: { id: string }) => r.id), 'no reading recorded').toEqual(before);
  });

  test('custom-field ids outside 1..2147483647 or not integers', { tag: ['@CF-005'] }, async ({ api }) => {
    const badId = fc.oneof(
      fc.constant('0'),
      fc.integer({ min: -MAX_INT, max: -1 }).map(String),
      fc.integer({ min: MAX_INT + 1, max: Number.MAX_SAFE_INTEGER }).map(String),
      fc.double({ min: 0.5, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)).map(String),
      fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/),
    );
    const labels: string[] = [];
    await assertProperty(fc.asyncProperty(fc.constantFrom('assets', 'locations', 'parts', 'workOrders'), badId, fc.constantFrom('PATCH', 'DELETE'), async (entity, id, method) => {
      const label = `CT invalid id ${uid()}`;
      labels.push(label);
      const response = await api.send(method, `/customfields/${entity}/${id}`, method === 'PATCH' ? { json: { field: { label } } } : {});
      expectProblem(response, 400, 'validation_error');
    }), RUNS);
    for (const entity of ['assets', 'locations', 'parts', 'workOrders']) {
      const definitions = (await api.get(`/customfields/${entity}`)).body as Array<{ label: string }>;
      expect(definitions.filter((d) => labels.includes(d.label)), `no ${entity} definition took a label`).toEqual([]);
    }
  });

  test('parts commands with an unknown operation or targetStatus, or a row quantity below 1 or not an integer', { tag: ['@PARTS-021'] }, async ({ api, profile, workOrders }) => {
    const wo = await workOrders.create();
    const path = `/work-orders/${wo.id}/parts`;
    const before = (await api.get<PartsSection>(path)).body;
    const stock = profile.fixtures.stockedParts?.[0] ?? { partId: 'ct_part', locationId: 'ct_location' };
    const badQuantity = fc.oneof(fc.integer({ min: -1000, max: 0 }), fc.double({ min: 0.01, max: 100, noNaN: true }).filter((n) => !Number.isInteger(n)), notNumber);
    const invalid = fc.oneof(
      fc.string().filter((o) => o !== 'transition' && o !== 'replace').map((operation) => ({ operation, targetStatus: 'reserved' })),
      fc.string().filter((s) => !['assigned', 'reserved', 'kitted', 'staged', 'issued'].includes(s)).map((targetStatus) => ({ operation: 'transition', targetStatus })),
      badQuantity.map((quantity) => ({ operation: 'replace', items: [{ partId: stock.partId, locationId: stock.locationId, quantity }] })),
    );
    await assertProperty(fc.asyncProperty(invalid, async (command) => {
      const body = { ...command, idempotencyKey: `CT ${uid()}`, expectedAggregateVersion: before.aggregateVersion };
      expectProblem(await api.post(path, { json: body }), 400, 'validation_error');
    }), RUNS);
    const after = (await api.get<PartsSection>(path)).body;
    expect(after.aggregateVersion, 'the section is unchanged').toBe(before.aggregateVersion);
    expect(after.items).toEqual(before.items);
  });
});

test.describe('valid bodies are accepted and read back', () => {
  test('expense POST bodies within the stated rules', { tag: ['@EXP-003', '@EXP-007', '@EXP-008'] }, async ({ api, profile, workOrders }) => {
    const wo = await workOrders.create();
    const path = `/work-orders/${wo.id}/other-costs`;
    const valid = fc.record({
      user_id: fc.constant(need(profile, 'fixtures.activeUserId')),
      type: fc.constantFrom('labor', 'travel', 'other'),
      amount_minor: fc.oneof(fc.constantFrom(0, MAX_INT), fc.integer({ min: 0, max: MAX_INT })),
      description: fc.oneof(fc.constant(null), text(0, 80), fc.constant('e'.repeat(5000))),
    }, { requiredKeys: ['user_id', 'type', 'amount_minor'] });
    await assertProperty(fc.asyncProperty(valid, async (body) => {
      const created = await api.post<ExpenseEntry>(path, { json: body });
      expect(created.status, proves(['EXP-003'], created.text.slice(0, 300))).toBe(201);
      const listed = (await api.get<ExpenseList>(path)).body.items.find((e: { id: string }) => e.id === created.body.id);
      expect(listed, 'the entry is listed as it was answered').toEqual(created.body);
    }), RUNS);
  });

  test('meter create bodies as spec/openapi.yaml infers them', { tag: ['@METER-015'] }, async ({ api, profile }) => {
    const assetId = (await anyAsset(api, profile)).id;
    const valid = fc.record({
      name: text(1, 60).filter((n) => n.trim() !== ''),
      description: fc.option(text(0, 80), { nil: null }),
      meter_type: fc.constantFrom('counter', 'gauge'),
      category: fc.constantFrom('runtime', 'distance', 'temperature', 'pressure', 'volume', 'electrical', 'other'),
      unit: fc.option(text(0, 20), { nil: null }),
      custom_unit: fc.option(text(0, 20), { nil: null }),
      frequency: fc.option(text(0, 20), { nil: null }),
      frequency_interval: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: null }),
      min_value: fc.option(amount, { nil: null }),
      max_value: fc.option(amount, { nil: null }),
      rollover_value: fc.option(amount, { nil: null }),
    }, { requiredKeys: ['name'] });
    await assertProperty(fc.asyncProperty(valid, async (fields) => {
      const body = { ...fields, asset_id: assetId };
      const created = await api.post<MeterEnvelope>('/meters', { json: body });
      expect(created.status, created.text.slice(0, 300)).toBe(201);
      const read = (await api.get<MeterEnvelope>(`/meters/${created.body.data.id}`)).body.data;
      expect(read, 'the meter reads back with the values sent').toMatchObject(body);
    }), RUNS);
  });

  test('reading create bodies as spec/openapi.yaml infers them', { tag: ['@READ-006'] }, async ({ api, profile }) => {
    const meter = await createMeter(api, profile);
    const valid = fc.record({
      value: amount,
      reading_at: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString()),
      source: fc.constantFrom('api', 'manual', 'import', 'automation'),
      notes: fc.option(text(0, 80), { nil: null }),
      external_id: fc.option(text(1, 40), { nil: null }),
    }, { requiredKeys: ['value'] });
    await assertProperty(fc.asyncProperty(valid, async (body) => {
      const created = await api.post<MeterReadingEnvelope>(`/meters/${meter.id}/readings`, { json: body });
      expect(created.status, created.text.slice(0, 300)).toBe(201);
      const { items } = await walkPages<MeterReading>(api, `/meters/${meter.id}/readings`, { limit: 100 });
      const read = items.find((r) => r.id === created.body.data.id)!;
      const { reading_at, ...rest } = body;
      expect(read, 'the reading is listed with the values sent').toMatchObject(rest);
      if (reading_at !== undefined) expect(Date.parse(read.reading_at)).toBe(Date.parse(reading_at));
    }), RUNS);
  });
});
