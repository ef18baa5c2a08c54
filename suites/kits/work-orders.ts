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
import type { WorkOrder, WorkRequest } from '../lib/api-types.ts';

/** Creates a work order (asserting 201) and returns its data. */
export async function createWorkOrder(api: ApiClient, profile: TargetProfile, overrides: Record<string, unknown> = {}): Promise<WorkOrder> {
  const response = expectCreated(await api.post('/work-orders', { json: { title: `CT work order ${uid()}`, priority: 'medium', ...profile.bodies.createWorkOrder, ...overrides } }));
  return response.body.data;
}

/** A pending work request of the main organization, for approval into a work order. */
export async function pendingWorkRequest(api: ApiClient, profile: TargetProfile): Promise<string> {
  const created = await api.post('/workrequests', { json: { title: `CT request ${uid()}`, priority: 'LOW' } });
  if (created.status === 200 || created.status === 201) {
    const id = created.body?.workRequest?.id ?? created.body?.id;
    if (typeof id === 'string') return id;
  }
  const id = await lease('pending-work-request', profile.fixtures.pendingWorkRequestIds ?? [], { consume: true });
  if (!id) notAssessed('the target cannot create work requests (inferred POST /workrequests) and fixtures.pendingWorkRequestIds is empty or used up');
  return id;
}

export interface WorkOrderKit {
  create(overrides?: Record<string, unknown>, client?: ApiClient): Promise<WorkOrder>;
  pendingRequest(): Promise<string>;
  findRequest(id: string): Promise<WorkRequest | undefined>;
}

export const test = base.extend<{ workOrders: WorkOrderKit }>({
  workOrders: async ({ api, profile }, use) => {
    await use({
      create: (overrides, client = api) => createWorkOrder(client, profile, overrides),
      pendingRequest: () => pendingWorkRequest(api, profile),
      findRequest: (id) => findInCompatList(api, '/workrequests', 'workRequests', id),
    });
  },
});

export { expect };
