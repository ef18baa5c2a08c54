/**
 * The work-orders test kit: work orders and pending work requests through the API.
 * A pending work request comes from the inferred POST /workrequests when the target offers it, else
 * from the profile's `fixtures.pendingWorkRequestIds` (each consumed once per run).
 */
import { test as base, expect } from '../fixtures.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiClient } from '../lib/client.ts';
import { expectCreated, uid } from '../lib/provision.ts';
import { lease } from '../lib/lease.ts';
import { notAssessed } from '../lib/needs.ts';
import { findInCompatList } from '../lib/walk-pages.ts';
import type { WorkOrder, WorkOrderEnvelope, WorkOrderList, WorkRequest, WorkRequestWrapper } from '../lib/api-types.ts';
import { arrange, arranging, expectApplied } from '../lib/arrange.ts';

/**
 * Creates a work order as a set-up step, arranged (suites/lib/arrange.ts): a 201 whose record shows the
 * `overrides` sent, else the test is not assessed (WO-002 proves the create itself). Returns its data.
 */
export function createWorkOrder(api: ApiClient, profile: TargetProfile, overrides: Record<string, unknown> = {}): Promise<WorkOrder> {
  return arrange('create a work order (POST /work-orders)', async () => {
    const response = expectCreated(await api.post<WorkOrderEnvelope>('/work-orders', { json: { title: `CT work order ${uid()}`, priority: 'medium', ...profile.bodies.createWorkOrder, ...overrides } }));
    expectApplied(response.body.data, overrides, 'POST /work-orders');
    return response.body.data;
  });
}

/**
 * Moves a work order to `status` (a list-filter value: `open`, `on_hold`, `in_progress`, `done`,
 * `canceled`, `skipped`), arranged: `status` is a member the description does not show in an update
 * ("Transitions of work-order status: not shown"), so the PATCH must answer 200 and the work order must
 * read back in that status — its detail's `status` when it shows one, else the stated list filter
 * `status=<status>` — or the test is not assessed.
 */
export function moveWorkOrder(api: ApiClient, id: string, status: string): Promise<void> {
  return arrange(`move work order ${id} to ${status} (PATCH status, inferred)`, async () => {
    const patched = await api.patch(`/work-orders/${id}`, { json: { status } });
    expect(patched.status, `PATCH /work-orders/${id}: ${patched.text.slice(0, 200)}`).toBe(200);
    const detail = await api.get<WorkOrderEnvelope>(`/work-orders/${id}`);
    if (detail.body?.data && 'status' in detail.body.data) return expectApplied(detail.body.data, { status }, `PATCH /work-orders/${id}`);
    let cursor: string | undefined;
    for (let page = 0; page < 50; page++) {
      const listed = await api.get<WorkOrderList>('/work-orders', { query: { status, limit: 100, cursor } });
      expect(listed.status, `GET /work-orders?status=${status}: ${listed.text.slice(0, 200)}`).toBe(200);
      if (listed.body.data.some((w: { id: string }) => w.id === id)) return;
      if (!listed.body.meta.pagination.has_more) break;
      cursor = listed.body.meta.pagination.cursor;
    }
    throw new Error(`PATCH /work-orders/${id} answered 200 but the work order is not listed under status=${status}`);
  });
}

/** A pending work request of the main organization, for approval into a work order. */
export async function pendingWorkRequest(api: ApiClient, profile: TargetProfile): Promise<string> {
  // A created request: its wrapper as described, or the bare record some targets answer.
  const created = await api.post<Partial<WorkRequestWrapper & WorkRequest>>('/workrequests', { json: { title: `CT request ${uid()}`, priority: 'LOW' } });
  if (created.status === 200 || created.status === 201) {
    const id = created.body?.workRequest?.id ?? created.body?.id;
    if (typeof id === 'string') return id;
  }
  const id = await lease('pending-work-request', profile.fixtures.pendingWorkRequestIds ?? [], { consume: true });
  if (!id) notAssessed('the target cannot create work requests (inferred POST /workrequests) and fixtures.pendingWorkRequestIds is empty or used up');
  return id;
}

export interface WorkOrderKit {
  /** Arranged: a work order showing `overrides`, made with `client`'s organization. */
  create(overrides?: Record<string, unknown>, client?: ApiClient): Promise<WorkOrder>;
  /** Arranged: a pending work request's id. */
  pendingRequest(): Promise<string>;
  /** Arranged: the work order moved to `status` (`moveWorkOrder`). */
  move(id: string, status: string, client?: ApiClient): Promise<void>;
  /** Arranged: the work order moved to done. */
  complete(id: string, client?: ApiClient): Promise<void>;
  findRequest(id: string): Promise<WorkRequest | undefined>;
}

export const test = base.extend<{ workOrders: WorkOrderKit }>({
  workOrders: async ({ api, profile }, use) => {
    await use({
      create: (overrides, client = api) => createWorkOrder(client, profile, overrides),
      pendingRequest: arranging('find a pending work request', () => pendingWorkRequest(api, profile)),
      move: (id, status, client = api) => moveWorkOrder(client, id, status),
      complete: (id, client = api) => moveWorkOrder(client, id, 'done'),
      findRequest: (id) => findInCompatList(api, '/workrequests', 'workRequests', id),
    });
  },
});

export { expect };
