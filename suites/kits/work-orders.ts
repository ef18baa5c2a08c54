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

/** Creates a work order (asserting 201) and returns its data. */
export async function createWorkOrder(api: ApiClient, profile: TargetProfile, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const response = expectCreated(await api.post('/work-orders', { json: { title: `CT work order ${uid()}`, priority: 'medium', ...profile.bodies.createWorkOrder, ...overrides } }));
  return response.body.data;
}

/** A pending work request of the main organization, for approval into a work order. */
export async function pendingWorkRequest(api: ApiClient, profile: TargetProfile): Promise<string> {
  const created = await api.lenient().post('/workrequests', { json: { title: `CT request ${uid()}`, priority: 'LOW' } });
  if (created.status === 200 || created.status === 201) {
    const id = created.body?.workRequest?.id ?? created.body?.id;
    if (typeof id === 'string') return id;
  }
  const id = await lease('pending-work-request', profile.fixtures.pendingWorkRequestIds ?? [], { consume: true });
  if (!id) notAssessed('the target cannot create work requests (inferred POST /workrequests) and fixtures.pendingWorkRequestIds is empty or used up');
  return id;
}

/** Finds a work request by id by walking GET /workrequests (the description has no single read). */
export async function findWorkRequest(api: ApiClient, id: string): Promise<Record<string, any> | undefined> {
  let cursor: string | undefined;
  for (let n = 0; n < 200; n++) {
    const page = await api.get('/workrequests', { query: { limit: 200, cursor } });
    expect(page.status).toBe(200);
    const hit = page.body.workRequests.find((w: { id: string }) => w.id === id);
    if (hit) return hit;
    if (page.body.nextCursor === null) return undefined;
    cursor = page.body.nextCursor;
  }
  return undefined;
}

export interface WorkOrderKit {
  create(overrides?: Record<string, unknown>, client?: ApiClient): Promise<Record<string, any>>;
  pendingRequest(): Promise<string>;
  findRequest(id: string): Promise<Record<string, any> | undefined>;
}

export const test = base.extend<{ workOrders: WorkOrderKit }>({
  workOrders: async ({ api, profile }, use) => {
    await use({
      create: (overrides, client = api) => createWorkOrder(client, profile, overrides),
      pendingRequest: () => pendingWorkRequest(api, profile),
      findRequest: (id) => findWorkRequest(api, id),
    });
  },
});

export { expect };
