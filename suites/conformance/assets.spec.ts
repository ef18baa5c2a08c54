/** Assets (Resources › Asset and location; Endpoints › Other families: GET /assets with `status`). */
import { test, expect } from '../fixtures.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkPages } from '../lib/walk-pages.ts';
import { concurrently } from '../lib/concurrently.ts';
import { notAssessed } from '../lib/needs.ts';
import { uid, viaInferred } from '../lib/provision.ts';
import type { Asset, AssetEnvelope } from '../lib/api-types.ts';

const STATUSES = ['online', 'offline', 'not_monitored'];

test.describe('assets', () => {
  test('assets carry the stated values of status, criticality, asset_type and asset_types', { tag: ['@ASSET-001'] }, async ({ api }) => {
    const { items } = await walkPages<Asset>(api, '/assets', { limit: 100 });
    if (items.length === 0) notAssessed('the organization has no asset');
    for (const a of items) {
      if (a.status !== undefined) expect(STATUSES, `asset ${a.id} status`).toContain(a.status);
      if (a.criticality !== undefined) expect(['critical', 'important', 'normal'], `asset ${a.id} criticality`).toContain(a.criticality);
      if (a.asset_type !== undefined) expect(['equipment', 'vehicle', 'facility'], `asset ${a.id} asset_type`).toContain(a.asset_type);
      if (a.asset_types !== undefined) expect(Array.isArray(a.asset_types), `asset ${a.id} asset_types`).toBe(true);
    }
  });

  test('the status filter returns only assets in that status, and together they are the whole list', { tag: ['@ASSET-002'] }, async ({ api }) => {
    // Four independent walks (each its own cursor chain), at once.
    const [whole, ...byStatus] = await concurrently([undefined, ...STATUSES], (status) => walkPages<Asset>(api, '/assets', { status, limit: 100 }));
    const all = new Set(whole!.items.map((a) => a.id));
    const seen = new Set<string>();
    for (const [i, status] of STATUSES.entries()) {
      for (const a of byStatus[i]!.items) {
        expect(a.status, `status=${status} returned ${a.id}`).toBe(status);
        seen.add(a.id);
      }
    }
    for (const id of all) expect(seen.has(id), `asset ${id} appears under one of the statuses`).toBe(true);
  });

  test('a status outside the three values answers 400', { tag: ['@ASSET-003'] }, async ({ api }) => {
    for (const status of ['Online', 'broken', '']) expectProblem(await api.get('/assets', { query: { status } }), 400, 'validation_error');
  });

  test('parent_asset_id names an asset of the organization, or is null', { tag: ['@ASSET-004'] }, async ({ api }) => {
    const { items } = await walkPages<Asset>(api, '/assets', { limit: 100 });
    const ids = new Set(items.map((a) => a.id));
    const children = items.filter((a) => a.parent_asset_id);
    if (children.length === 0) notAssessed('the organization has no sub-asset');
    for (const a of children) expect(ids.has(a.parent_asset_id!), `parent ${a.parent_asset_id} of ${a.id} is listed`).toBe(true);
  });

  test('sub_asset_count is the number of active descendants', { tag: ['@ASSET-005'] }, async ({ api }) => {
    const { items } = await walkPages<Asset>(api, '/assets', { limit: 100 });
    const byParent = new Map<string, string[]>();
    for (const a of items) if (a.parent_asset_id) (byParent.get(a.parent_asset_id) ?? byParent.set(a.parent_asset_id, []).get(a.parent_asset_id)!).push(a.id);
    const descendants = (id: string): number => (byParent.get(id) ?? []).reduce((n, c) => n + 1 + descendants(c), 0);
    const withCount = items.filter((a) => a.sub_asset_count !== undefined);
    if (!withCount.some((a) => a.sub_asset_count! > 0)) notAssessed('no listed asset has sub-assets');
    for (const a of withCount) expect(a.sub_asset_count, `sub_asset_count of ${a.id}`).toBe(descendants(a.id));
  });

  test('hierarchy fields are read-only: writes naming them are refused and change nothing', { tag: ['@ASSET-006'] }, async ({ api }) => {
    const { items } = await walkPages<Asset>(api, '/assets', { limit: 100 });
    const parent = items.find((a) => !a.parent_asset_id)!;
    const created = await viaInferred('POST /assets', (c) => c.post<AssetEnvelope>('/assets', { json: { name: `CT asset ${uid()}` } }), api, [201]);
    const id = created.body.data.id;
    expectProblem(await api.patch(`/assets/${id}`, { json: { parent_asset_id: parent.id } }), 400, 'validation_error');
    expectProblem(await api.patch(`/assets/${id}`, { json: { sub_asset_count: 3 } }), 400, 'validation_error');
    expectProblem(await api.post('/assets', { json: { name: `CT asset ${uid()}`, parent_asset_id: parent.id } }), 400, 'validation_error');
    const read = await api.get<AssetEnvelope>(`/assets/${id}`);
    expect(read.body.data.parent_asset_id).toBeNull();
  });

  test('assets are created, read and updated', { tag: ['@ASSET-007'] }, async ({ api }) => {
    const name = `CT asset ${uid()}`;
    const created = await viaInferred('POST /assets', (c) => c.post<AssetEnvelope>('/assets', { json: { name, status: 'offline', criticality: 'important' } }), api, [201]);
    expect(created.body.data).toMatchObject({ name, status: 'offline', criticality: 'important', parent_asset_id: null, sub_asset_count: 0 });
    const id = created.body.data.id;
    const updated = await api.patch<AssetEnvelope>(`/assets/${id}`, { json: { status: 'online' } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name, status: 'online', criticality: 'important' });
    expect((await api.get<AssetEnvelope>(`/assets/${id}`)).body.data).toMatchObject({ status: 'online' });
    const online = await walkPages<Asset>(api, '/assets', { status: 'online', limit: 100 });
    expect(online.items.map((a) => a.id)).toContain(id);
  });
});
