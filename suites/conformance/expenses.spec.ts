/**
 * Work-order expenses (Resources › Work-order expense entry; Endpoints › Work-order expenses; States
 * and transitions › Expense entry; Limits). Entry fields are not shown by the description: `must` tests
 * rely only on an entry's `id` (the `costId` of DELETE) and find other values anywhere in the entry.
 */
import { mergeTests } from '@playwright/test';
import { test as expensesTest, expect } from '../kits/expenses.ts';
import { test as workOrdersTest } from '../kits/work-orders.ts';
import { expectProblem, expectRefused } from '../lib/expect-problem.ts';
import { need } from '../lib/needs.ts';
import type { ExpenseEntry, ExpenseList, WorkOrderEnvelope } from '../lib/api-types.ts';

const test = mergeTests(workOrdersTest, expensesTest);

const UNKNOWN_WORK_ORDER = 'wo_doesnotexist0000';
const UNKNOWN_COST = 'exp_doesnotexist0000';
const MAX_AMOUNT = 2147483647;

const path = (workOrderId: string) => `/work-orders/${workOrderId}/other-costs`;

test.describe('work-order expenses', () => {
  test('GET answers 200 {items, currency, canCreate}', { tag: ['@EXP-001'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    const list = await api.get<ExpenseList>(path(wo.id));
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body.items)).toBe(true);
    expect(typeof list.body.currency).toBe('string');
    expect(list.body.currency.length).toBeGreaterThan(0);
    expect(typeof list.body.canCreate).toBe('boolean');
  });

  test('a valid POST answers 201 with the entry in the current currency, listed afterwards', { tag: ['@EXP-003'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    const { currency } = await expenses.list(wo.id);
    const created = await api.post<ExpenseEntry>(path(wo.id), { json: expenses.body({ type: 'travel', amount_minor: 4321 }) });
    expect(created.status).toBe(201);
    const entry = created.body;
    expect(typeof entry.id).toBe('string');
    expect(JSON.stringify(entry), 'the entry records the organization currency').toContain(JSON.stringify(currency));
    const after = await expenses.list(wo.id);
    expect(after.items.map((e) => e.id)).toEqual([entry.id]);
  });

  test('retired entries are omitted from items', { tag: ['@EXP-002'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    const kept = await expenses.record(wo.id);
    const retired = await expenses.record(wo.id);
    expect((await api.delete(`${path(wo.id)}/${retired.id}`)).status).toBe(204);
    expect((await expenses.list(wo.id)).items.map((e) => e.id)).toEqual([kept.id]);
  });

  test('a body with another property answers 400 and records nothing', { tag: ['@EXP-004'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    for (const extra of [{ currency: 'USD' }, { notes: 'x' }, { amount: 100 }]) {
      expectProblem(await api.post(path(wo.id), { json: expenses.body(extra) }), 400, 'validation_error');
    }
    expect((await expenses.list(wo.id)).items).toEqual([]);
  });

  test('JSON field names are case-sensitive: User_ID does not satisfy user_id', { tag: ['@WIRE-005'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    const { user_id, ...rest } = expenses.body();
    expectProblem(await api.post(path(wo.id), { json: { ...rest, User_ID: user_id } }), 400, 'validation_error');
    const { type, ...untyped } = expenses.body();
    expectProblem(await api.post(path(wo.id), { json: { ...untyped, Type: type } }), 400, 'validation_error');
    expect((await expenses.list(wo.id)).items).toEqual([]);
  });

  test('a missing user_id, type or amount_minor, or an empty user_id, answers 400', { tag: ['@EXP-005'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    for (const field of ['user_id', 'type', 'amount_minor']) {
      const body = expenses.body();
      delete body[field];
      expectProblem(await api.post(path(wo.id), { json: body }), 400, 'validation_error');
    }
    expectProblem(await api.post(path(wo.id), { json: expenses.body({ user_id: '' }) }), 400, 'validation_error');
    expectProblem(await api.post(path(wo.id), { json: {} }), 400, 'validation_error');
    expect((await expenses.list(wo.id)).items).toEqual([]);
  });

  test('type accepts labor, travel and other only', { tag: ['@EXP-006'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    for (const type of ['LABOR', 'Travel', 'mileage', '', null, 1]) {
      expectProblem(await api.post(path(wo.id), { json: expenses.body({ type }) }), 400, 'validation_error');
    }
    const made: string[] = [];
    for (const type of ['labor', 'travel', 'other']) made.push((await expenses.expectAccepted(wo.id, { type })).id);
    expect((await expenses.list(wo.id)).items.map((e) => e.id)).toEqual(made);
  });

  test('amount_minor accepts 0 through 2147483647 and refuses the rest', { tag: ['@EXP-007'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    for (const amount_minor of [-1, MAX_AMOUNT + 1, 1.5, '100', null]) {
      expectProblem(await api.post(path(wo.id), { json: expenses.body({ amount_minor }) }), 400, 'validation_error');
    }
    const zero = await expenses.expectAccepted(wo.id, { amount_minor: 0 });
    const max = await expenses.expectAccepted(wo.id, { amount_minor: MAX_AMOUNT });
    expect((await expenses.list(wo.id)).items.map((e) => e.id)).toEqual([zero.id, max.id]);
  });

  test('description accepts null and 5000 characters; 5001 answers 400', { tag: ['@EXP-008'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    expectProblem(await api.post(path(wo.id), { json: expenses.body({ description: 'd'.repeat(5001) }) }), 400, 'validation_error');
    expectProblem(await api.post(path(wo.id), { json: expenses.body({ description: 42 }) }), 400, 'validation_error');
    const withNull = await expenses.expectAccepted(wo.id, { description: null });
    const longest = await expenses.expectAccepted(wo.id, { description: 'd'.repeat(5000) });
    const without = expenses.body();
    delete without.description;
    const absent = await expenses.expectAccepted(wo.id, without);
    expect((await expenses.list(wo.id)).items.map((e) => e.id)).toEqual([withNull.id, longest.id, absent.id]);
  });

  test('an unknown or inactive user_id answers 404 and records nothing', { tag: ['@EXP-009'] }, async ({ api, profile, workOrders, expenses }) => {
    const inactive = need(profile, 'fixtures.inactiveUserId');
    const wo = await workOrders.create();
    expectProblem(await api.post(path(wo.id), { json: expenses.body({ user_id: 'usr_doesnotexist000' }) }), 404);
    expectProblem(await api.post(path(wo.id), { json: expenses.body({ user_id: inactive }) }), 404);
    expect((await expenses.list(wo.id)).items).toEqual([]);
  });

  test("another organization's user answers 404 and records nothing", { tag: ['@EXP-009', '@TENANT-004'] }, async ({ api, profile, workOrders, expenses }) => {
    const foreignUser = need(profile, 'fixtures.otherOrgUserId');
    const wo = await workOrders.create();
    expectProblem(await api.post(path(wo.id), { json: expenses.body({ user_id: foreignUser }) }), 404);
    expect((await expenses.list(wo.id)).items).toEqual([]);
  });

  test('with cost tracking disabled POST is refused and records nothing', { tag: ['@EXP-010'] }, async ({ as, profile, workOrders, expenses }) => {
    const ledger = as.role('keys.costTrackingDisabled');
    // An active user of that organization: nothing but disabled cost tracking may refuse the entry.
    const userId = need(profile, 'fixtures.expenseInCostTrackingDisabledOrg.userId');
    const wo = await workOrders.create({}, ledger);
    expectRefused(await ledger.post(path(wo.id), { json: expenses.body({ user_id: userId }) }));
    expect((await expenses.list(wo.id, ledger)).items).toEqual([]);
  });

  test('POST on a soft-deleted work order is refused', { tag: ['@EXP-011'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    expect((await api.delete(`/work-orders/${wo.id}`)).status).toBe(204);
    expectRefused(await api.post(path(wo.id), { json: expenses.body() }));
    expectProblem(await api.get(path(wo.id)), 404);
  });

  test('DELETE answers 204, the entry leaves the list, a repeat answers 204', { tag: ['@EXP-012'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    const entry = await expenses.record(wo.id);
    const retired = await api.delete(`${path(wo.id)}/${entry.id}`);
    expect(retired.status).toBe(204);
    expect(retired.text).toBe('');
    expect((await expenses.list(wo.id)).items).toEqual([]);
    expect((await api.delete(`${path(wo.id)}/${entry.id}`)).status).toBe(204);
  });

  test('retiring stays available after cost tracking is disabled', { tag: ['@EXP-013'] }, async ({ as, profile, expenses }) => {
    const fixture = need(profile, 'fixtures.expenseInCostTrackingDisabledOrg');
    const ledger = as.role('keys.costTrackingDisabled');
    expect((await ledger.delete(`${path(fixture.workOrderId)}/${fixture.costId}`)).status).toBe(204);
    expect((await expenses.list(fixture.workOrderId, ledger)).items.map((e) => e.id)).not.toContain(fixture.costId);
  });

  test('an unknown work order or cost id answers 404', { tag: ['@EXP-014'] }, async ({ api, workOrders, expenses }) => {
    expectProblem(await api.get(path(UNKNOWN_WORK_ORDER)), 404);
    expectProblem(await api.post(path(UNKNOWN_WORK_ORDER), { json: expenses.body() }), 404);
    expectProblem(await api.delete(`${path(UNKNOWN_WORK_ORDER)}/${UNKNOWN_COST}`), 404);
    const wo = await workOrders.create();
    const other = await workOrders.create();
    const entry = await expenses.record(other.id);
    expectProblem(await api.delete(`${path(wo.id)}/${UNKNOWN_COST}`), 404);
    expectProblem(await api.delete(`${path(wo.id)}/${entry.id}`), 404);
    expect((await expenses.list(other.id)).items.map((e) => e.id)).toEqual([entry.id]);
  });

  test('an entry recorded under a previous currency keeps it', { tag: ['@EXP-015'] }, async ({ profile, expenses }) => {
    const fixture = need(profile, 'fixtures.expenseUnderPreviousCurrency');
    const list = await expenses.list(fixture.workOrderId);
    expect(list.currency, 'the organization currency changed since').not.toBe(fixture.currency);
    const entry = list.items.find((e) => e.id === fixture.costId);
    expect(entry, `entry ${fixture.costId} is listed`).toBeTruthy();
    expect(JSON.stringify(entry)).toContain(JSON.stringify(fixture.currency));
  });
});

test.describe('work-order expenses (inferred)', () => {
  test('the API key is the actor; user_id only attributes the expense', { tag: ['@EXP-016'] }, async ({ profile, workOrders, expenses }) => {
    const wo = await workOrders.create();
    const entry = await expenses.record(wo.id);
    expect(entry.actor).toMatchObject({ type: 'api_key', key_id: expect.any(String) });
    expect(entry.user_id).toBe(profile.fixtures.activeUserId);
    expect(entry.actor!.key_id).not.toBe(entry.user_id);
  });

  test("recording an expense leaves labor rates and purchase costs unchanged", { tag: ['@EXP-017'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    const before = (await api.get<WorkOrderEnvelope>(`/work-orders/${wo.id}`)).body.data.costs!;
    expect(before, 'work-order reads include costs').toBeTruthy();
    await expenses.record(wo.id, { amount_minor: 2500 });
    const after = (await api.get<WorkOrderEnvelope>(`/work-orders/${wo.id}`)).body.data.costs!;
    expect(after).toMatchObject({ labor: before.labor, labor_cost_minor: before.labor_cost_minor, purchase_cost_minor: before.purchase_cost_minor });
    expect(after.other_cost_minor).toBe(before.other_cost_minor! + 2500);
  });

  test('entries carry id, work_order_id, user_id, type, amount_minor, currency, description, created_at', { tag: ['@EXP-018'] }, async ({ profile, workOrders, expenses }) => {
    const wo = await workOrders.create();
    const { currency } = await expenses.list(wo.id);
    const body = expenses.body({ type: 'labor', amount_minor: 990, description: 'Contractor call-out' });
    const entry = await expenses.record(wo.id, body);
    expect(entry).toMatchObject({
      id: expect.any(String), work_order_id: wo.id, user_id: profile.fixtures.activeUserId, type: 'labor',
      amount_minor: 990, currency, description: 'Contractor call-out', created_at: expect.any(String),
    });
    expect(Number.isNaN(Date.parse(entry.created_at!))).toBe(false);
    expect((await expenses.list(wo.id)).items).toEqual([entry]);
  });

  test('canCreate is true exactly when cost tracking is on and the work order active', { tag: ['@EXP-019'] }, async ({ as, workOrders, expenses }) => {
    const wo = await workOrders.create();
    expect((await expenses.list(wo.id)).canCreate).toBe(true);
    await workOrders.complete(wo.id);
    expect((await expenses.list(wo.id)).canCreate).toBe(false);
    const ledger = as.role('keys.costTrackingDisabled');
    const ledgerWo = await workOrders.create({}, ledger);
    expect((await expenses.list(ledgerWo.id, ledger)).canCreate).toBe(false);
  });

  test('POST on a completed work order answers 409 and records nothing', { tag: ['@EXP-020'] }, async ({ api, workOrders, expenses }) => {
    const wo = await workOrders.create();
    await workOrders.complete(wo.id);
    expectProblem(await api.post(path(wo.id), { json: expenses.body() }), 409);
    expect((await expenses.list(wo.id)).items).toEqual([]);
  });
});
