/** Meters (Resources › Meter; Endpoints › Meters (native); States and transitions › Meter). */
import { proves } from '../lib/proves.ts';
import { test, expect } from '../kits/meters.ts';
import { foreignRecord } from '../lib/foreign.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkPages } from '../lib/walk-pages.ts';
import { need } from '../lib/needs.ts';
import { expectRefusedDespiteInferredBody, precondition, uid } from '../lib/provision.ts';
import { expectApplied } from '../lib/arrange.ts';
import type { Meter, MeterEnvelope, MeterReading } from '../lib/api-types.ts';

const UNKNOWN = 'mtr_doesnotexist0000';

test.describe('meters', () => {
  test('a created meter answers 201 in the {data, meta} envelope', { tag: ['@METER-002'] }, async ({ api, profile, meters }) => {
    const body = await meters.body({ description: 'Conformance check' });
    const created = precondition(await api.post<MeterEnvelope>('/meters', { json: body }), 201, { inferredBody: profile.bodies.createMeter ? undefined : 'bodies.createMeter' });
    expect(typeof created.body.meta, 'the envelope has meta').toBe('object');
    expect(typeof created.body.data.id, 'the envelope has the created meter as data').toBe('string');
  });

  // The create is a setup step here (any 2xx; its 201 is METER-002's, proven above) whose answer must show
  // the inferred members sent; what it created reads back.
  test('a created meter reads back by id in the envelope', { tag: ['@METER-007', '@METER-001', '@VER-003', '@METER-017'] }, async ({ api, profile, meters, arrange }) => {
    const body = await meters.body({ description: 'Conformance check' });
    const created = await arrange('create a meter showing the members sent', async () => {
      const answer = precondition(await api.post<MeterEnvelope>('/meters', { json: body }), [201, 200, 202, 203], { inferredBody: profile.bodies.createMeter ? undefined : 'bodies.createMeter' });
      expectApplied(answer.body.data, { name: body.name, description: 'Conformance check' }, 'POST /meters');
      return answer;
    });
    expect(created.body.meta.api_version, proves(['VER-003'], 'the create answers meta.api_version v1')).toBe('v1');
    const meter = created.body.data;
    // The create body is not shown: that the values sent come back is the inferred reading, METER-017.
    expect(meter, proves(['METER-017'], 'the create answers the values sent')).toMatchObject({ name: body.name, asset_id: body.asset_id, description: 'Conformance check' });
    expect(meter.location_id ?? null, proves(['METER-017'], 'no location_id was sent')).toBeNull();
    const read = await api.get<MeterEnvelope>(`/meters/${meter.id}`);
    expect(read.status, proves(['METER-007'], 'GET /meters/{id} of a meter of the organization')).toBe(200);
    expect(Object.keys(read.body).sort(), proves(['METER-007', 'VER-003'], 'the read is {data, meta}')).toEqual(['data', 'meta']);
    expect(read.body.data.id, proves(['METER-007'], 'the read is the meter asked for')).toBe(meter.id);
    expect(read.body.data, proves(['METER-017'], 'the read holds the values sent')).toMatchObject({ name: body.name, asset_id: body.asset_id, is_active: true });
  });

  test('a meter can attach to a location instead of an asset', { tag: ['@METER-005'] }, async ({ meters }) => {
    const locationId = await meters.locationId();
    const meter = await meters.create({ location_id: locationId });
    expect(meter.location_id).toBe(locationId);
    expect(meter.asset_id ?? null).toBeNull();
  });

  test('both asset_id and location_id are refused and create nothing', { tag: ['@METER-003'] }, async ({ api, meters }) => {
    const body = await meters.body({ location_id: await meters.locationId(), asset_id: await meters.assetId() });
    expectProblem(await api.post('/meters', { json: body }), 400, 'validation_error');
    const { items } = await walkPages<Meter>(api, '/meters', { asset_id: body.asset_id as string, limit: 100 });
    expect(items.map((m) => m.name)).not.toContain(body.name);
  });

  test('neither asset_id nor location_id is refused and creates nothing', { tag: ['@METER-004'] }, async ({ api, meters }) => {
    const body = await meters.body({ asset_id: undefined });
    delete body.asset_id;
    delete body.location_id;
    expectProblem(await api.post('/meters', { json: body }), 400, 'validation_error');
    const { items } = await walkPages<Meter>(api, '/meters', { limit: 100 });
    expect(items.map((m) => m.name)).not.toContain(body.name);
  });

  test('every meter is attached to exactly one asset or location', { tag: ['@METER-005', '@METER-001'] }, async ({ api, meters }) => {
    await meters.create();
    const { items } = await walkPages<Meter>(api, '/meters', { limit: 100 });
    expect(items.length).toBeGreaterThan(0);
    for (const m of items) expect([m.asset_id, m.location_id].filter((v) => v !== null && v !== undefined), `meter ${m.id}`).toHaveLength(1);
  });

  test("an asset or location the organization does not have answers 404", { tag: ['@METER-006', '@TENANT-004'] }, async ({ api, profile, meters, as }) => {
    const inferred = profile.bodies.createMeter ? undefined : 'bodies.createMeter';
    expectRefusedDespiteInferredBody(await api.post('/meters', { json: await meters.body({ asset_id: 'ast_doesnotexist000' }) }), 404, inferred);
    expectRefusedDespiteInferredBody(await api.post('/meters', { json: await meters.body({ asset_id: undefined, location_id: 'loc_doesnotexist000' }) }), 404, inferred);
    const foreignAsset = (await foreignRecord(as.otherOrg(), '/assets')).id;
    expectRefusedDespiteInferredBody(await api.post('/meters', { json: await meters.body({ asset_id: foreignAsset }) }), 404, inferred);
  });

  test('reading an unknown meter answers 404', { tag: ['@METER-007'] }, async ({ api }) => {
    expectProblem(await api.get(`/meters/${UNKNOWN}`), 404);
  });

  test('PATCH changes only the fields it names', { tag: ['@METER-008'] }, async ({ api, meters }) => {
    const meter = await meters.create({ description: 'before' });
    const name = `renamed ${uid()}`;
    const patched = await api.patch<MeterEnvelope>(`/meters/${meter.id}`, { json: { name } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id: meter.id, name, description: 'before', asset_id: meter.asset_id });
    const read = await api.get<MeterEnvelope>(`/meters/${meter.id}`);
    expect(read.body.data).toMatchObject({ name, description: 'before', created_at: meter.created_at });
    expectProblem(await api.patch(`/meters/${UNKNOWN}`, { json: { name } }), 404);
  });

  test('an invalid update is refused and changes nothing', { tag: ['@METER-009'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    expectProblem(await api.patch(`/meters/${meter.id}`, { json: { name: 42 } }), 400, 'validation_error');
    const read = await api.get<MeterEnvelope>(`/meters/${meter.id}`);
    expect(read.body.data).toMatchObject({ name: meter.name, asset_id: meter.asset_id });
  });

  // The one-attachment rule is stated for creating; an update naming both is the inferred reading.
  test('an update naming both asset_id and location_id is refused and changes nothing', { tag: ['@METER-018'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    expectProblem(await api.patch(`/meters/${meter.id}`, { json: { asset_id: meter.asset_id, location_id: await meters.locationId() } }), 400, 'validation_error');
    const read = await api.get<MeterEnvelope>(`/meters/${meter.id}`);
    expect(read.body.data).toMatchObject({ asset_id: meter.asset_id });
    expect(read.body.data.location_id ?? null).toBeNull();
  });

  test('archiving a meter no automation uses answers 204', { tag: ['@METER-010'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    const archived = await api.delete(`/meters/${meter.id}`);
    expect(archived.status).toBe(204);
    expect(archived.text).toBe('');
  });

  test('archiving a meter an automation uses answers 409 resource_in_use and keeps it active', { tag: ['@METER-011'] }, async ({ api, profile }) => {
    const id = need(profile, 'fixtures.meterUsedByAutomation');
    expectProblem(await api.delete(`/meters/${id}`), 409, 'resource_in_use');
    const read = await api.get<MeterEnvelope>(`/meters/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.is_active).toBe(true);
  });

  test('archiving an unknown meter answers 404', { tag: ['@METER-012'] }, async ({ api }) => {
    expectProblem(await api.delete(`/meters/${UNKNOWN}`), 404);
  });

  test('the list filters return only matching meters', { tag: ['@METER-013'] }, async ({ api, meters }) => {
    const onAsset = await meters.create();
    const onLocation = await meters.create({ location_id: await meters.locationId() });
    const byAsset = await walkPages<Meter>(api, '/meters', { asset_id: onAsset.asset_id!, limit: 100 });
    expect(byAsset.items.map((m) => m.id)).toContain(onAsset.id);
    for (const m of byAsset.items) expect(m.asset_id).toBe(onAsset.asset_id);
    const byLocation = await walkPages<Meter>(api, '/meters', { location_id: onLocation.location_id!, limit: 100 });
    expect(byLocation.items.map((m) => m.id)).toContain(onLocation.id);
    for (const m of byLocation.items) expect(m.location_id).toBe(onLocation.location_id);
    const sample = (await walkPages<Meter>(api, '/meters', { limit: 100 })).items.find((m) => m.meter_type && m.category)!;
    expect(sample, 'a meter with meter_type and category').toBeTruthy();
    const byType = await walkPages<Meter>(api, '/meters', { meter_type: sample.meter_type, category: sample.category, limit: 100 });
    expect(byType.items.map((m) => m.id)).toContain(sample.id);
    for (const m of byType.items) expect(m).toMatchObject({ meter_type: sample.meter_type, category: sample.category });
  });

  test('an archived meter stays readable, inactive, with its readings, and archives again with 204', { tag: ['@METER-014'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    const reading = await meters.record(meter.id, { value: 7 });
    expect((await api.delete(`/meters/${meter.id}`)).status).toBe(204);
    const read = await api.get<MeterEnvelope>(`/meters/${meter.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.is_active).toBe(false);
    const readings = await walkPages<MeterReading>(api, `/meters/${meter.id}/readings`);
    expect(readings.items.map((r) => r.id)).toContain(reading.id);
    expect((await api.delete(`/meters/${meter.id}`)).status).toBe(204);
  });

  test('a create body with an unknown field is refused', { tag: ['@METER-015'] }, async ({ api, meters }) => {
    expectProblem(await api.post('/meters', { json: await meters.body({ colour: 'red' }) }), 400, 'validation_error');
  });
});
