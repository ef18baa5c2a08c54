/**
 * The bulk control routes of the `scale` bench (mock/control/bulk.ts) and the work-order list's indexed
 * filters over HTTP (Endpoints › Work orders (native)): bulk readings go before a meter's first reading
 * in (`reading_at`, id) order and leave its current value; bad bodies are 400/404 problem details and
 * change nothing; each filter's page and `total_count`, after bulk loads, updates and a soft delete,
 * equal what a scan of the store's visible rows gives; so do a work order's expenses and other costs.
 */
import { test, expect } from '@playwright/test';
import { controlFetch, startTestMock, type TestMock } from './support.ts';
import type { Org } from '../store/org.ts';
import type { WorkOrderRow } from '../store/types.ts';

test.describe.configure({ mode: 'serial' });

let t: TestMock;
test.beforeAll(async () => {
  t = await startTestMock();
});
test.afterAll(() => t.mock.stop());

const org = (): Org => [...t.mock.app.world.orgs.values()][0]!;
type Page = { data: Array<{ id: string; reading_at?: string }>; meta: { pagination: { total_count: number; has_more: boolean; cursor: string } } };
const bulk = (route: string, body: object) => controlFetch(t.mock, `/__mock/bulk/${route}`, { method: 'POST', body: JSON.stringify(body) });

test('bulk readings backfill before the first reading and keep the meter current value', async () => {
  const meter = [...org().meters.values()].find((m) => m.data.is_active)!;
  const before = org().readings.get(meter.id) ?? [];
  const r = await bulk('readings', { count: 250, meterId: meter.id });
  expect(r.status).toBe(201);
  expect(await r.json()).toMatchObject({ meterId: meter.id, created: 250, readings: before.length + 250 });
  const seen: Array<{ id: string; reading_at?: string }> = [];
  let cursor = '';
  for (;;) {
    const page = (await (await t.call(`/v1/meters/${meter.id}/readings?limit=100${cursor}`)).json()) as Page;
    expect(page.meta.pagination.total_count).toBe(before.length + 250);
    seen.push(...page.data);
    if (!page.meta.pagination.has_more) break;
    cursor = `&cursor=${encodeURIComponent(page.meta.pagination.cursor)}`;
  }
  expect(new Set(seen.map((s) => s.id)).size).toBe(before.length + 250);
  expect(seen.slice(250).map((s) => s.id)).toEqual(before.map((b) => b.id));
  const times = seen.map((s) => Date.parse(s.reading_at!));
  expect(times).toEqual([...times].sort((a, b) => a - b));
  const now = (await (await t.call(`/v1/meters/${meter.id}`)).json()) as { data: { current_value: unknown } };
  expect(now.data.current_value).toEqual(meter.data.current_value);
});

test('bad bulk bodies are problem details and change nothing', async () => {
  const meter = [...org().meters.values()].find((m) => m.data.is_active)!;
  const held = org().readings.get(meter.id)!.length;
  for (const [body, status] of [[{ count: 0 }, 400], [{ count: 100_001 }, 400], [{ count: 1.5 }, 400], [{ count: 1, meterId: 'mtr_none' }, 404], [{ count: 1, color: 'x' }, 400], [{ count: 1, orgId: 'org_none' }, 404]] as const) {
    const r = await bulk('readings', body);
    expect(r.status, JSON.stringify(body)).toBe(status);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
  }
  expect(org().readings.get(meter.id)!.length).toBe(held);
});

test('filtered lists answer what a scan of the visible rows gives, after bulk loads and writes', async () => {
  expect((await bulk('work-orders', { count: 400 })).status).toBe(201);
  const rows = [...org().workOrders.values()];
  const user = rows.find((w) => (w.data.assigned_to_user_ids ?? []).length > 0)!.data.assigned_to_user_ids![0]!;
  const send = (method: string, path: string, body?: object) => t.call(path, { method, ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
  expect((await send('PATCH', `/v1/work-orders/${rows[5]!.id}`, { status: 'done' })).status).toBe(200);
  expect((await send('PATCH', `/v1/work-orders/${rows[6]!.id}`, { status: 'on_hold', priority: 'critical' })).status).toBe(200);
  expect((await send('DELETE', `/v1/work-orders/${rows[7]!.id}`)).status).toBe(204);
  const filters: Array<[string, (w: WorkOrderRow) => boolean]> = [
    ['status=done', (w) => w.data.status === 'done'],
    ['status=todo', (w) => ['open', 'on_hold', 'in_progress'].includes(w.data.status!)],
    ['priority=critical', (w) => w.data.priority === 'critical'],
    [`assigned_to_user_id=${user}`, (w) => (w.data.assigned_to_user_ids ?? []).includes(user)],
    [`status=todo&assigned_to_user_id=${user}`, (w) => ['open', 'on_hold', 'in_progress'].includes(w.data.status!) && (w.data.assigned_to_user_ids ?? []).includes(user)],
  ];
  for (const [query, match] of filters) {
    for (const direction of ['asc', 'desc']) {
      const expected = [...org().workOrders.values()].filter(match).map((w) => w.id);
      if (direction === 'desc') expected.reverse();
      expect(expected.length, query).toBeGreaterThan(0);
      const page = (await (await t.call(`/v1/work-orders?limit=100&direction=${direction}&${query}`)).json()) as Page;
      expect(page.meta.pagination.total_count, query).toBe(expected.length);
      expect(page.data.map((d) => d.id), `${query} ${direction}`).toEqual(expected.slice(0, 100));
    }
  }
});

test('a work order\'s expenses and other costs are its own visible entries, read through the index', async () => {
  const send = (method: string, path: string, body?: object) => t.call(path, { method, ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
  const [a, b] = [...org().workOrders.values()].filter((w) => ['open', 'in_progress'].includes(w.data.status!)).slice(-2);
  const user = [...org().users.values()].find((u) => u.active)!.id;
  const created: string[] = [];
  for (const [wo, amount] of [[a!, 100], [b!, 20], [a!, 3], [a!, 4000]] as const) {
    const r = await send('POST', `/v1/work-orders/${wo.id}/other-costs`, { user_id: user, type: 'other', amount_minor: amount });
    expect(r.status).toBe(201);
    created.push(((await r.json()) as { id: string }).id);
  }
  expect((await send('DELETE', `/v1/work-orders/${a!.id}/other-costs/${created[3]}`)).status).toBe(204);
  for (const wo of [a!, b!]) {
    const scanned = [...org().expenses.values()].filter((e) => e.workOrderId === wo.id);
    const list = (await (await t.call(`/v1/work-orders/${wo.id}/other-costs`)).json()) as { items: Array<{ id: string }> };
    expect(list.items.map((i) => i.id)).toEqual(scanned.map((e) => e.id));
    const detail = (await (await t.call(`/v1/work-orders/${wo.id}`)).json()) as { data: { costs: { other_cost_minor: number } } };
    expect(detail.data.costs.other_cost_minor).toBe(scanned.reduce((n, e) => n + (e.data.amount_minor ?? 0), 0));
  }
  const ofA = (await (await t.call(`/v1/work-orders/${a!.id}/other-costs`)).json()) as { items: Array<{ id: string }> };
  expect(ofA.items.map((i) => i.id)).toEqual(expect.arrayContaining([created[0], created[2]]));
  expect(ofA.items.map((i) => i.id)).not.toContain(created[3]);
});
