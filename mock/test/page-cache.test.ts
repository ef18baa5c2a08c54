/**
 * The list-page cache (mock/paging/page-cache.ts) never serves a stale page: every list is read once
 * (so its page is cached), written to by one kind of write, and read again; each read is compared with
 * the store itself (the visible rows in id order, their JSON, `total_count`), never with an earlier
 * answer. Writes: create, update, soft delete, archive, a reading (the meter's current value), custom
 * fields, the clock, bulk seeding, the control API's reset and state PUT.
 */
import { test, expect } from '@playwright/test';
import { controlFetch, startTestMock, type TestMock } from './support.ts';
import type { Collection, Identified } from '../store/collection.ts';
import type { Org } from '../store/org.ts';

test.describe.configure({ mode: 'serial' });

let t: TestMock;
test.beforeAll(async () => {
  t = await startTestMock();
  // Prism loads in the background after start; on a busy machine that could hold the first reads.
  await t.mock.prismLoaded;
});
test.afterAll(() => t.mock.stop());

type Lists = 'workOrders' | 'meters' | 'parts';
const PATHS: Record<Lists, string> = { workOrders: '/v1/work-orders', meters: '/v1/meters', parts: '/v1/parts' };

/** The organization of the test key, in the current world (it changes on reset). */
function org(): Org {
  const key = [...t.mock.app.world.keysById.values()].find((k) => k.prefix === 'live')!;
  return t.mock.app.world.orgs.get(key.orgId)!;
}

/** A record as a list shows it: its data without `extraFields`. */
function listed(data: object): unknown {
  const { extraFields: _omitted, ...rest } = data as Record<string, unknown>;
  return rest;
}

/** Reads `query` of list `name` and checks it against the store: ids, records and total_count. */
async function expectFresh(name: Lists, query = 'limit=100'): Promise<void> {
  const r = await t.call(`${PATHS[name]}?${query}`);
  expect(r.status).toBe(200);
  const page = (await r.json()) as { data: Array<{ id: string }>; meta: { pagination: { total_count: number; has_more: boolean } } };
  const collection = org()[name] as unknown as Collection<Identified & { data: object }>;
  const limit = Number(new URLSearchParams(query).get('limit') ?? 20);
  const desc = query.includes('direction=desc');
  const visible = [...collection.values()];
  if (desc) visible.reverse();
  expect(page.data.map((d) => d.id)).toEqual(visible.slice(0, limit).map((row) => row.id));
  expect(page.data).toEqual(visible.slice(0, limit).map((row) => (name === 'meters' ? row.data : listed(row.data))));
  expect(page.meta.pagination.total_count).toBe(collection.visibleCount);
  expect(page.meta.pagination.has_more).toBe(visible.length > limit);
}

/** Reads every list twice (the second read is served from the cache), then checks them. */
async function warmAndCheck(): Promise<void> {
  for (const name of Object.keys(PATHS) as Lists[]) {
    await expectFresh(name);
    await expectFresh(name);
    await expectFresh(name, 'limit=3&direction=desc');
  }
}

async function send(method: string, path: string, body?: unknown): Promise<any> {
  const r = await t.call(path, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) });
  expect(r.status, `${method} ${path}: ${r.status}`).toBeLessThan(300);
  return r.status === 204 ? undefined : r.json();
}

test('work orders: create, update, soft delete, custom fields and bulk seeding show at once', async () => {
  await warmAndCheck();
  const created = (await send('POST', '/v1/work-orders', { title: 'Cache check' })).data;
  await expectFresh('workOrders');
  await expectFresh('workOrders', 'limit=3&direction=desc');
  await send('PATCH', `/v1/work-orders/${created.id}`, { title: 'Cache check, renamed', priority: 'high' });
  await expectFresh('workOrders', 'limit=3&direction=desc');
  const first = [...org().workOrders.values()][0]!;
  await send('PATCH', `/v1/work-orders/${first.id}`, { title: 'First, renamed' });
  await expectFresh('workOrders');
  const [field] = await send('POST', '/v1/customfields/workOrders', { fields: [{ label: `Cache ${Date.now()}`, type: 'text' }] });
  await send('PATCH', `/v1/work-orders/${first.id}`, { extraFields: { [field.label]: 'x' } });
  await expectFresh('workOrders');
  await send('DELETE', `/v1/customfields/workOrders/${field.id}`);
  await expectFresh('workOrders');
  await send('DELETE', `/v1/work-orders/${first.id}`);
  await expectFresh('workOrders');
  await expectFresh('workOrders', 'limit=3&direction=desc');
  expect((await controlFetch(t.mock, '/__mock/bulk/work-orders', { method: 'POST', body: JSON.stringify({ count: 3 }) })).status).toBeLessThan(300);
  await expectFresh('workOrders');
  await expectFresh('workOrders', 'limit=3&direction=desc');
});

test('meters: create, update, a reading, archive; parts: create and update', async () => {
  await warmAndCheck();
  const first = [...org().meters.values()].find((m) => m.data.is_active && !m.usedByAutomation)!;
  await send('POST', `/v1/meters/${first.id}/readings`, { value: 12345 });
  await expectFresh('meters');
  await send('PATCH', `/v1/meters/${first.id}`, { name: 'Renamed meter' });
  await expectFresh('meters');
  await send('DELETE', `/v1/meters/${first.id}`);
  await expectFresh('meters');
  const location = [...org().locations.values()][0]!;
  await send('POST', '/v1/meters', { name: 'Cache meter', location_id: location.id });
  await expectFresh('meters');
  await expectFresh('meters', 'limit=3&direction=desc');
  const part = (await send('POST', '/v1/parts', { name: 'Cache part' })).data;
  await expectFresh('parts', 'limit=3&direction=desc');
  await send('PATCH', `/v1/parts/${part.id}`, { name: 'Cache part, renamed' });
  await expectFresh('parts', 'limit=3&direction=desc');
});

test('the clock, a reset and a state PUT: every list answers the current world', async () => {
  await warmAndCheck();
  expect((await controlFetch(t.mock, '/__mock/clock/advance', { method: 'POST', body: JSON.stringify({ seconds: 40 * 86_400 }) })).status).toBe(200);
  await warmAndCheck();
  const state = await (await controlFetch(t.mock, '/__mock/state')).text();
  await send('POST', '/v1/work-orders', { title: 'Gone after the reset' });
  await send('POST', '/v1/parts', { name: 'Gone after the reset' });
  await warmAndCheck();
  expect((await controlFetch(t.mock, '/__mock/reset', { method: 'POST' })).status).toBeLessThan(300);
  await warmAndCheck();
  await send('POST', '/v1/work-orders', { title: 'Gone after the state PUT' });
  await warmAndCheck();
  expect((await controlFetch(t.mock, '/__mock/state', { method: 'PUT', body: state })).status).toBeLessThan(300);
  await warmAndCheck();
});

/**
 * The cursor of the first page of 3 work orders, the last id on it (checked against the store), and the
 * tokens the current codec issues for that id just before and just after the request: a cursor's expiry
 * is in whole seconds and the wall clock may pass one during the request, so it must be one of the two.
 */
async function firstPageCursor(): Promise<{ cursor: string; lastId: string; issued: string[] }> {
  const lastId = [...org().workOrders.values()][2]!.id;
  const binding = { endpoint: 'listWorkOrders', org: org().id, filters: '', limit: 3, direction: 'asc' };
  const before = t.mock.app.cursors.issue(binding, lastId);
  const r = await t.call('/v1/work-orders?limit=3');
  expect(r.status).toBe(200);
  const page = (await r.json()) as { data: Array<{ id: string }>; meta: { pagination: { cursor: string } } };
  expect(page.data[2]!.id).toBe(lastId);
  return { cursor: page.meta.pagination.cursor, lastId, issued: [before, t.mock.app.cursors.issue(binding, lastId)] };
}

test("a remembered page's cursor is the one the codec issues now: after the clock moves and after a reset too", async () => {
  const first = await firstPageCursor();
  expect(first.issued).toContain(first.cursor);
  const again = await firstPageCursor();
  expect(again.issued).toContain(again.cursor);
  expect((await controlFetch(t.mock, '/__mock/clock/advance', { method: 'POST', body: JSON.stringify({ seconds: 2 }) })).status).toBe(200);
  const later = await firstPageCursor();
  expect(later.cursor).not.toBe(again.cursor);
  expect(later.issued).toContain(later.cursor);
  expect((await controlFetch(t.mock, '/__mock/reset', { method: 'POST' })).status).toBeLessThan(300);
  const reset = await firstPageCursor();
  expect(reset.issued).toContain(reset.cursor);
  const next = await t.call(`/v1/work-orders?limit=3&cursor=${encodeURIComponent(reset.cursor)}`);
  expect(next.status).toBe(200);
  const ids = [...org().workOrders.values()].map((row) => row.id);
  expect(((await next.json()) as { data: Array<{ id: string }> }).data[0]!.id).toBe(ids[3]);
});
