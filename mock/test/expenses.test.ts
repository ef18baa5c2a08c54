/**
 * Work-order expenses in the mock (Endpoints › Work-order expenses; States and transitions › Expense
 * entry): the seeded entries and fixtures, retirement that keeps the row, the inferred 409 codes, and
 * no 500 on any body.
 */
import { test, expect } from '@playwright/test';
import { buildWorld, DEFAULT_SEED } from '../seed/build.ts';
import { costsOf } from '../handlers/work-orders.ts';
import { isActive } from '../domain/work-order-state.ts';
import { startMock, type RunningMock } from '../server.ts';
import { controlFetch } from './support.ts';

test('seeded entries: on existing work orders, some retired, never recorded or without description; fixtures usable', () => {
  const world = buildWorld(DEFAULT_SEED);
  for (const org of world.orgs.values()) {
    for (const e of org.expenses.all()) expect(org.workOrders.getAny(e.workOrderId), `${org.id} ${e.id}`).toBeTruthy();
  }
  const acme = world.orgs.get('org_acme')!;
  const all = acme.expenses.all();
  expect(all.some((e) => e.retiredAt !== undefined)).toBe(true);
  expect(all.some((e) => e.data.user_id === null && e.data.currency === null)).toBe(true);
  expect(all.some((e) => e.data.description === null)).toBe(true);
  expect(world.orgs.get('org_globex')!.expenses.visibleCount).toBeGreaterThan(0);

  const previous = world.fixtures.expenseUnderPreviousCurrency as { workOrderId: string; costId: string; currency: string };
  expect(previous.currency).not.toBe(acme.settings.currency);
  expect(acme.expenses.get(previous.costId)).toMatchObject({ workOrderId: previous.workOrderId, data: { currency: previous.currency } });
  expect(acme.workOrders.get(previous.workOrderId)).toBeTruthy();

  const ledger = world.orgs.get('org_ledger')!;
  const disabled = world.fixtures.expenseInCostTrackingDisabledOrg as { workOrderId: string; costId: string };
  expect(ledger.settings.costTracking).toBe(false);
  expect(ledger.expenses.get(disabled.costId)?.workOrderId).toBe(disabled.workOrderId);
  expect(isActive(ledger.workOrders.get(disabled.workOrderId)!)).toBe(true);
});

test("a work order's other cost counts its active entries only", () => {
  const acme = buildWorld(DEFAULT_SEED).orgs.get('org_acme')!;
  const retired = acme.expenses.all().find((e) => e.retiredAt !== undefined)!;
  const wo = acme.workOrders.getAny(retired.workOrderId)!;
  const active = acme.expenses.all().filter((e) => e.workOrderId === wo.id && e.retiredAt === undefined);
  expect(costsOf(acme, wo).other_cost_minor).toBe(active.reduce((n, e) => n + (e.data.amount_minor ?? 0), 0));
});

test.describe('over HTTP', () => {
  let mock: RunningMock;
  const keys = { acme: '', ledger: '' };
  test.beforeAll(async () => {
    mock = await startMock({ port: 0 });
    const profileKeys = mock.profile.keys as { live: string[]; costTrackingDisabled: string };
    keys.acme = profileKeys.live[0]!;
    keys.ledger = profileKeys.costTrackingDisabled;
  });
  test.afterAll(async () => mock.stop());

  const call = (key: string, method: string, path: string, body?: unknown) =>
    fetch(`${mock.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });

  test('retiring keeps the row with its first retirement time; the entry leaves the list and the costs', async () => {
    const acme = mock.app.world.orgs.get('org_acme')!;
    const wo = (await (await call(keys.acme, 'POST', '/work-orders', { title: 'unit expense' })).json() as any).data;
    const user = mock.profile.fixtures.activeUserId as string;
    const entry = await (await call(keys.acme, 'POST', `/work-orders/${wo.id}/other-costs`, { user_id: user, type: 'travel', amount_minor: 700 })).json() as any;
    expect(entry).toMatchObject({ work_order_id: wo.id, user_id: user, currency: 'USD', actor: { type: 'api_key' } });
    expect(costsOf(acme, acme.workOrders.get(wo.id)!).other_cost_minor).toBe(700);
    expect((await call(keys.acme, 'DELETE', `/work-orders/${wo.id}/other-costs/${entry.id}`)).status).toBe(204);
    const retiredAt = acme.expenses.getAny(entry.id)!.retiredAt;
    expect(retiredAt).toBeTruthy();
    await controlFetch(mock, `/__mock/clock/advance`, { method: 'POST', body: JSON.stringify({ seconds: 5 }) });
    expect((await call(keys.acme, 'DELETE', `/work-orders/${wo.id}/other-costs/${entry.id}`)).status).toBe(204);
    expect(acme.expenses.getAny(entry.id)!.retiredAt).toBe(retiredAt);
    expect(costsOf(acme, acme.workOrders.get(wo.id)!).other_cost_minor).toBe(0);
  });

  test('cost tracking off answers 409 cost_tracking_disabled; a completed work order 409 work_order_inactive', async () => {
    const ledgerWo = (await (await call(keys.ledger, 'POST', '/work-orders', { title: 'ledger' })).json() as any).data;
    const off = await call(keys.ledger, 'POST', `/work-orders/${ledgerWo.id}/other-costs`, { user_id: 'usr_x', type: 'other', amount_minor: 1 });
    expect(off.status).toBe(409);
    expect(((await off.json()) as any).code).toBe('cost_tracking_disabled');
    const wo = (await (await call(keys.acme, 'POST', '/work-orders', { title: 'done', status: 'done' })).json() as any).data;
    const done = await call(keys.acme, 'POST', `/work-orders/${wo.id}/other-costs`, { user_id: mock.profile.fixtures.activeUserId, type: 'other', amount_minor: 1 });
    expect(done.status).toBe(409);
    expect(((await done.json()) as any).code).toBe('work_order_inactive');
  });

  test('malformed bodies and cost ids never get a 500', async () => {
    const wo = (await (await call(keys.acme, 'POST', '/work-orders', { title: 'fuzz' })).json() as any).data;
    const user = mock.profile.fixtures.activeUserId;
    const bodies: unknown[] = [
      '{"user_id":', '[]', 'null', '"text"', 42, { user_id: [user], type: 'other', amount_minor: 1 },
      { user_id: user, type: 'other', amount_minor: 1e300 }, { user_id: user, type: { x: 1 }, amount_minor: 1 },
      { user_id: 'x'.repeat(100_000), type: 'other', amount_minor: 1 }, { user_id: user, type: 'other', amount_minor: 1, description: '\u0000\ud800' },
    ];
    for (const body of bodies) {
      const r = await call(keys.acme, 'POST', `/work-orders/${wo.id}/other-costs`, body);
      expect([201, 400, 404], JSON.stringify(body).slice(0, 80)).toContain(r.status);
    }
    for (const costId of ['%00', 'x'.repeat(500), '..', '%2F']) {
      const r = await call(keys.acme, 'DELETE', `/work-orders/${wo.id}/other-costs/${costId}`);
      expect([400, 404], costId.slice(0, 20)).toContain(r.status);
    }
  });
});
