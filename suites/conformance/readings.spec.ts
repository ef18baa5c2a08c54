/** Meter readings (Resources › Meter reading; Endpoints › Meters (native); Limits › Pagination). */
import { proves } from '../lib/proves.ts';
import { test, expect } from '../kits/meters.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkPages } from '../lib/walk-pages.ts';
import { expectRefusedDespiteInferredBody } from '../lib/provision.ts';
import type { MeterEnvelope, MeterReading, MeterReadingEnvelope, MeterReadingList } from '../lib/api-types.ts';

const UNKNOWN = 'mtr_doesnotexist0000';


test.describe('meter readings', () => {
  test('a recorded reading answers 201 and is listed', { tag: ['@READ-002', '@READ-001'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    // The body is "not shown": the values sent are not this requirement's (READ-006 and METER-015 read them back).
    const created = await api.post<MeterReadingEnvelope>(`/meters/${meter.id}/readings`, { json: { value: 12.5, reading_at: '2026-03-01T08:30:00.000Z' } });
    expect(created.status, proves(['READ-002'], 'the reading is created')).toBe(201);
    expect(created.body.data).toMatchObject({ meter_id: meter.id });
    const { items } = await walkPages<MeterReading>(api, `/meters/${meter.id}/readings`);
    expect(items.map((r) => r.id)).toContain(created.body.data.id);
  });

  test('readings are immutable: no route updates or deletes one', { tag: ['@READ-003'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    const reading = await meters.record(meter.id, { value: 3 });
    for (const method of ['PATCH', 'PUT', 'DELETE']) {
      const r = await api.send(method, `/meters/${meter.id}/readings/${reading.id}`, method === 'DELETE' ? {} : { json: { value: 4 } });
      expect(r.status, `${method} a reading`).toBeGreaterThanOrEqual(400);
    }
    const { items } = await walkPages<MeterReading>(api, `/meters/${meter.id}/readings`);
    expect(items.find((r) => r.id === reading.id)?.value).toBe(3);
  });

  test('an unknown meter answers 404 for readings', { tag: ['@READ-004'] }, async ({ api }) => {
    expectProblem(await api.get(`/meters/${UNKNOWN}/readings`), 404);
  });

  test('recording a reading on an unknown meter answers 404', { tag: ['@READ-004'] }, async ({ api, profile }) => {
    const body = { value: 1, ...profile.bodies.createMeterReading };
    expectRefusedDespiteInferredBody(await api.post(`/meters/${UNKNOWN}/readings`, { json: body }), 404, profile.bodies.createMeterReading ? undefined : 'bodies.createMeterReading');
  });

  test('an invalid reading is refused and records nothing', { tag: ['@READ-005'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    for (const body of [{ value: 'high' }, { value: 1, reading_at: 'yesterday' }, { value: null }]) {
      expectProblem(await api.post(`/meters/${meter.id}/readings`, { json: body }), 400, 'validation_error');
    }
    const { items } = await walkPages<MeterReading>(api, `/meters/${meter.id}/readings`);
    expect(items).toHaveLength(0);
  });

  // The reading body is not shown: that `value` is required is the inferred reading.
  test('a reading without a value is refused and records nothing', { tag: ['@READ-009'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    expectProblem(await api.post(`/meters/${meter.id}/readings`, { json: {} }), 400, 'validation_error');
    const { items } = await walkPages<MeterReading>(api, `/meters/${meter.id}/readings`);
    expect(items).toHaveLength(0);
  });

  test('readings page by reading_at then id, equal timestamps included, in both directions', { tag: ['@PAGE-010', '@PAGE-005', '@PAGE-006'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    const times = ['2026-01-03T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z', '2026-01-04T00:00:00Z'];
    for (const [i, t] of times.entries()) await meters.record(meter.id, { value: i, reading_at: t });
    const asc = await walkPages<MeterReading>(api, `/meters/${meter.id}/readings`, { limit: 2, direction: 'asc' });
    expect(asc.items, proves(['PAGE-005', 'PAGE-010'], 'every reading, equal timestamps included')).toHaveLength(times.length);
    const ids = asc.items.map((r) => r.id);
    expect(new Set(ids).size, proves(['PAGE-005', 'PAGE-010'], 'no reading twice')).toBe(times.length);
    for (let i = 1; i < asc.items.length; i++) {
      const [prev, cur] = [asc.items[i - 1]!, asc.items[i]!];
      const dt = Date.parse(cur.reading_at) - Date.parse(prev.reading_at);
      expect(dt, proves(['PAGE-010'], 'ascending reading_at')).toBeGreaterThanOrEqual(0);
      if (dt === 0) expect(cur.id > prev.id, proves(['PAGE-010'], `equal reading_at: ${prev.id} before ${cur.id} by id`)).toBe(true);
    }
    // The same order whatever the page size.
    const single = await walkPages<MeterReading>(api, `/meters/${meter.id}/readings`, { limit: 100, direction: 'asc' });
    expect(single.items.map((r) => r.id), proves(['PAGE-010'], 'the same order whatever the page size')).toEqual(ids);
    const desc = await walkPages<MeterReading>(api, `/meters/${meter.id}/readings`, { limit: 3, direction: 'desc' }, ['PAGE-006', 'PAGE-010']);
    expect(desc.items.map((r) => r.id), proves(['PAGE-006', 'PAGE-010'], 'desc is the reverse of asc')).toEqual([...ids].reverse());
  });

  test('a readings cursor made for one direction is refused with the other', { tag: ['@PAGE-011', '@PAGE-020'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    for (let i = 0; i < 3; i++) await meters.record(meter.id, { value: i, reading_at: `2026-02-0${i + 1}T00:00:00Z` });
    const first = await api.get<MeterReadingList>(`/meters/${meter.id}/readings`, { query: { limit: 1, direction: 'asc' } });
    expect(first.body.meta.pagination.has_more).toBe(true);
    const cursor = first.body.meta.pagination.cursor;
    expectProblem(await api.get(`/meters/${meter.id}/readings`, { query: { limit: 1, direction: 'desc', cursor } }), 400, 'validation_error');
    expect((await api.get(`/meters/${meter.id}/readings`, { query: { limit: 1, direction: 'asc', cursor } })).status).toBe(200);
  });

  test('reading_at defaults to now', { tag: ['@READ-006'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    const before = Date.now();
    const reading = await meters.record(meter.id, { value: 1 });
    expect(Math.abs(Date.parse(reading.reading_at) - before)).toBeLessThan(5 * 60_000);
  });

  test("the latest reading becomes the meter's current value", { tag: ['@READ-007'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    await meters.record(meter.id, { value: 10, reading_at: '2026-01-02T00:00:00Z' });
    await meters.record(meter.id, { value: 5, reading_at: '2026-01-01T00:00:00Z' });
    const read = await api.get<MeterEnvelope>(`/meters/${meter.id}`);
    expect(read.body.data.current_value).toBe(10);
    expect(Date.parse(read.body.data.current_reading_at!)).toBe(Date.parse('2026-01-02T00:00:00Z'));
  });

  test('an archived meter records no new readings', { tag: ['@READ-008'] }, async ({ api, meters }) => {
    const meter = await meters.create();
    expect((await api.delete(`/meters/${meter.id}`)).status).toBe(204);
    expectProblem(await api.post(`/meters/${meter.id}/readings`, { json: { value: 1 } }), 409);
  });
});
