/**
 * Feature modules (Authentication 8; module requirements): a disabled module answers 403
 * `module_disabled` even when the key holds the scope, except the documented exceptions; native work
 * orders need no module. Other families' module tests live in their own files.
 */
import { test, expect } from '../fixtures.ts';
import { expectSucceeded } from '../lib/expect-success.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { need } from '../lib/needs.ts';
import { uid } from '../lib/provision.ts';
import { MODULES } from '../../contract/openapi.ts';
import type { AssetList, WorkOrderEnvelope } from '../lib/api-types.ts';

test.describe('Meters module disabled', () => {
  test('every meter and reading operation but archive answers 403 module_disabled', { tag: ['@MODULE-001'] }, async ({ as, profile }) => {
    const client = as.moduleDisabled('meters');
    const meterId = need(profile, 'fixtures.meterInMetersDisabledOrg');
    const asset = (await client.get<AssetList>('/assets', { query: { limit: 1 } })).body.data[0];
    const attempts: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', '/meters'],
      ['POST', '/meters', { name: 'not allowed', ...profile.bodies.createMeter, asset_id: asset?.id ?? 'ast_none' }],
      ['GET', `/meters/${meterId}`],
      ['PATCH', `/meters/${meterId}`, { name: 'not allowed' }],
      ['GET', `/meters/${meterId}/readings`],
      ['POST', `/meters/${meterId}/readings`, { value: 1 }],
    ];
    for (const [method, path, json] of attempts) {
      expectProblem(await client.send(method, path, json ? { json } : {}), 403, 'module_disabled');
    }
  });

  test('archiving a meter stays available', { tag: ['@MODULE-005'] }, async ({ as, profile }) => {
    const client = as.moduleDisabled('meters');
    const meterId = need(profile, 'fixtures.meterInMetersDisabledOrg');
    const archived = await client.delete(`/meters/${meterId}`);
    expect(archived.status, archived.text).toBe(204);
  });
});

test.describe('native work orders need no feature module', () => {
  for (const module of MODULES) {
    test(`work orders are created, read, updated, listed and deleted with ${module} disabled`, { tag: ['@MODULE-013'] }, async ({ as, profile }) => {
      const client = as.moduleDisabled(module);
      const created = await client.post<WorkOrderEnvelope>('/work-orders', { json: { title: `CT module ${uid()}`, priority: 'medium', ...profile.bodies.createWorkOrder } });
      expectSucceeded(created);
      const id = created.body.data.id as string;
      expect((await client.get(`/work-orders/${id}`)).status).toBe(200);
      const updated = await client.patch<WorkOrderEnvelope>(`/work-orders/${id}`, { json: { priority: 'high' } });
      expect(updated.status, updated.text.slice(0, 300)).toBe(200);
      expect(updated.body.data.priority).toBe('high');
      expect((await client.get('/work-orders', { query: { limit: 1 } })).status).toBe(200);
      expect((await client.delete(`/work-orders/${id}`)).status).toBe(204);
      expectProblem(await client.get(`/work-orders/${id}`), 404);
    });
  }
});
