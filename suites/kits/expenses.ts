/**
 * The expenses test kit (Endpoints › Work-order expenses): expense bodies, entries recorded through the
 * API and a work order's expense list. An entry's owner is the profile's `fixtures.activeUserId` (the
 * API cannot create users). `test` adds it as the `expenses` fixture to the base
 * `test` (compose with other kits through `mergeTests`).
 */
import { test as base, expect } from '../fixtures.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiClient } from '../lib/client.ts';
import { need } from '../lib/needs.ts';
import { expectCreated, uid } from '../lib/provision.ts';
import type { ExpenseEntry, ExpenseList } from '../lib/api-types.ts';
import { arrange } from '../lib/arrange.ts';

/** A valid POST body: an `other` expense of 12.34 owned by the profile's active user. */
export function expenseBody(profile: TargetProfile, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { user_id: need(profile, 'fixtures.activeUserId'), type: 'other', amount_minor: 1234, description: `CT expense ${uid()}`, ...overrides };
}

/** Records an expense on a work order (asserting 201: the test's act, not arranged) and returns the entry. */
export async function recordExpense(api: ApiClient, profile: TargetProfile, workOrderId: string, overrides: Record<string, unknown> = {}): Promise<ExpenseEntry> {
  return expectCreated(await api.post<ExpenseEntry>(`/work-orders/${workOrderId}/other-costs`, { json: expenseBody(profile, overrides) })).body;
}

/** A work order's expense list (asserting 200). */
export async function listExpenses(api: ApiClient, workOrderId: string): Promise<ExpenseList> {
  const response = await api.get<ExpenseList>(`/work-orders/${workOrderId}/other-costs`);
  expect(response.status, `GET /work-orders/${workOrderId}/other-costs: ${response.text.slice(0, 300)}`).toBe(200);
  return response.body;
}

export interface ExpenseKit {
  body(overrides?: Record<string, unknown>): Record<string, unknown>;
  /** Records an entry as a set-up step (arranged: anything but a 201 with the entry leaves the test not assessed). */
  record(workOrderId: string, overrides?: Record<string, unknown>): Promise<ExpenseEntry>;
  /** Records an entry as the test's act: asserts the 201 (EXP-003, EXP-006 to EXP-008). */
  expectAccepted(workOrderId: string, overrides?: Record<string, unknown>): Promise<ExpenseEntry>;
  list(workOrderId: string, client?: ApiClient): Promise<ExpenseList>;
}

export const test = base.extend<{ expenses: ExpenseKit }>({
  expenses: async ({ api, profile }, use) => {
    await use({
      body: (overrides) => expenseBody(profile, overrides),
      record: (workOrderId, overrides) => arrange(`record an expense on work order ${workOrderId}`, () => recordExpense(api, profile, workOrderId, overrides)),
      expectAccepted: (workOrderId, overrides) => recordExpense(api, profile, workOrderId, overrides),
      list: (workOrderId, client = api) => listExpenses(client, workOrderId),
    });
  },
});

export { expect };
