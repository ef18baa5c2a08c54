/**
 * Part master records and asset–part links (Resources › Part; Endpoints › Other families; custom-field
 * values on part lists and details; the parts:write scope; the Parts Inventory module). Every route here
 * but the link path is inferred, so every test is `inferred`.
 */
import { test, expect } from '../kits/parts.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkPages } from '../lib/walk-pages.ts';
import { anyAsset, uid } from '../lib/provision.ts';
import type { ApiClient } from '../lib/client.ts';
import type { AssetList, Part, PartEnvelope, PartList } from '../lib/api-types.ts';

const NULLABLE_STRINGS = ['description', 'part_number', 'manufacturer', 'part_type_id', 'image_url'];

/** Asserts the Part fields the description lists, with their types. */
function expectPart(part: Record<string, any>): void {
  expect(part).toMatchObject({ id: expect.any(String), name: expect.any(String) });
  for (const f of NULLABLE_STRINGS) if (part[f] !== undefined) expect(part[f] === null || typeof part[f] === 'string', `part ${part.id}: ${f}`).toBe(true);
  if (part.minimum_stock !== undefined) expect(part.minimum_stock === null || typeof part.minimum_stock === 'number', `part ${part.id}: minimum_stock`).toBe(true);
  for (const f of ['created_at', 'updated_at']) if (part[f] !== undefined) expect(Number.isNaN(Date.parse(part[f])), `part ${part.id}: ${f} is a date-time`).toBe(false);
}

/** The part's `asset_ids` (GET /parts/{id}). */
async function linkedAssets(api: ApiClient, partId: string): Promise<string[]> {
  const read = await api.get<PartEnvelope>(`/parts/${partId}`);
  expect(read.status).toBe(200);
  return read.body.data.asset_ids!;
}

test.describe('parts', () => {
  test('parts carry the listed fields and types in the list and the detail', { tag: ['@PART-001'] }, async ({ api, parts }) => {
    const made = await parts.createPart(api, { part_number: `CT-${uid()}`, manufacturer: 'CT', minimum_stock: 4, description: null });
    expectPart(made);
    const page = await api.get<PartList>('/parts', { query: { limit: 20 } });
    expect(page.status).toBe(200);
    expect(page.body.data.length).toBeGreaterThan(0);
    for (const part of page.body.data) expectPart(part);
    const read = await api.get<PartEnvelope>(`/parts/${made.id}`);
    expectPart(read.body.data);
    expect(read.body.data).toMatchObject({ manufacturer: 'CT', minimum_stock: 4, description: null });
  });

  test('parts are created (201), read and updated (200)', { tag: ['@PART-002'] }, async ({ api, parts }) => {
    const name = `CT part ${uid()}`;
    const made = await parts.createPart(api, { name, minimum_stock: 2 });
    expect(made).toMatchObject({ name, minimum_stock: 2 });
    const read = await api.get<PartEnvelope>(`/parts/${made.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: made.id, name, minimum_stock: 2 });
    const renamed = `CT renamed ${uid()}`;
    const updated = await api.patch<PartEnvelope>(`/parts/${made.id}`, { json: { name: renamed, minimum_stock: 7 } });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ id: made.id, name: renamed, minimum_stock: 7 });
    expect((await api.get<PartEnvelope>(`/parts/${made.id}`)).body.data).toMatchObject({ name: renamed, minimum_stock: 7 });
    expectProblem(await api.get('/parts/prt_doesnotexist0000'), 404);
    expectProblem(await api.patch('/parts/prt_doesnotexist0000', { json: { name: 'x' } }), 404);
    expectProblem(await api.post('/parts', { json: { name: '' } }), 400, 'validation_error');
  });

  test('part lists omit extraFields; the part detail includes them', { tag: ['@EXTRA-004'] }, async ({ api, parts }) => {
    const definitions = await api.get('/customfields/parts');
    const text = definitions.status === 200 ? (definitions.body as Array<{ label: string; type?: string }>).find((d) => d.type === 'text') : undefined;
    const value = `CT ${uid()}`;
    const made = await parts.createPart(api, text ? { extraFields: { [text.label]: value } } : {});
    const detail = (await api.get<PartEnvelope>(`/parts/${made.id}`)).body.data;
    expect(typeof detail.extraFields).toBe('object');
    if (text) expect(detail.extraFields![text.label]).toBe(value);
    const { items } = await walkPages<Part>(api, '/parts', { limit: 100, direction: 'desc' });
    const listed = items.find((p) => p.id === made.id);
    expect(listed, 'the new part is listed').toBeTruthy();
    for (const part of items) expect('extraFields' in part, `list item ${part.id} has no extraFields`).toBe(false);
  });

  test("linking a part to an asset shows in the part's asset_ids; unlinking removes it", { tag: ['@LINK-001'] }, async ({ api, parts, profile }) => {
    const part = await parts.createPart();
    const asset = await anyAsset(api, profile);
    const path = `/assets/${asset.id}/parts/${part.id}`;
    expect((await api.put(path)).status).toBe(204);
    expect(await linkedAssets(api, part.id)).toContain(asset.id);
    expect((await api.put(path)).status, 'linking again').toBe(204);
    expect((await linkedAssets(api, part.id)).filter((id) => id === asset.id)).toHaveLength(1);
    expect((await api.delete(path)).status).toBe(204);
    expect(await linkedAssets(api, part.id)).not.toContain(asset.id);
  });

  test("linking or unlinking another organization's asset or part answers 404", { tag: ['@LINK-002'] }, async ({ api, as, parts, profile }) => {
    const foreign = as.otherOrg();
    const ours = { asset: (await anyAsset(api, profile)).id, part: (await parts.createPart()).id };
    const theirs = { asset: (await anyAsset(foreign)).id, part: (await parts.createPart(foreign)).id };
    for (const [asset, part] of [[theirs.asset, ours.part], [ours.asset, theirs.part]] as const) {
      expectProblem(await api.put(`/assets/${asset}/parts/${part}`), 404);
      expectProblem(await api.delete(`/assets/${asset}/parts/${part}`), 404);
    }
    expect(await linkedAssets(api, ours.part)).toEqual([]);
  });

  test('parts:write grants linking and unlinking parts and assets', { tag: ['@SCOPE-019'] }, async ({ api, as, parts, profile }) => {
    const part = await parts.createPart();
    const path = `/assets/${(await anyAsset(api, profile)).id}/parts/${part.id}`;
    const writer = as.scope('parts:write');
    expect((await writer.put(path)).status).toBe(204);
    expect((await writer.delete(path)).status).toBe(204);
    expectProblem(await as.scope('parts:read').put(path), 403, 'insufficient_scope');
  });

  test('with Parts Inventory disabled, part reads and writes and link routes answer 403 module_disabled', { tag: ['@MODULE-007'] }, async ({ as, profile }) => {
    const client = as.moduleDisabled('parts_inventory');
    const partId = profile.fixtures.partsModuleDisabledStock?.partId ?? 'prt_placeholder';
    const asset = (await client.get<AssetList>('/assets', { query: { limit: 1 } })).body.data[0]?.id ?? 'ast_placeholder';
    const attempts: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', '/parts'],
      ['POST', '/parts', { name: 'not allowed' }],
      ['GET', `/parts/${partId}`],
      ['PATCH', `/parts/${partId}`, { name: 'not allowed' }],
      ['PUT', `/assets/${asset}/parts/${partId}`],
      ['DELETE', `/assets/${asset}/parts/${partId}`],
    ];
    for (const [method, path, json] of attempts) expectProblem(await client.send(method, path, json ? { json } : {}), 403, 'module_disabled');
  });
});
