/**
 * Custom-field values (Resources › Custom-field definition): entity writes accept `extraFields` keyed by
 * the visible label, detail responses include it, asset, part and native work-order lists omit it, and
 * location lists include it with `expand=extra_fields`.
 * The `must` tests write values under a definition the suite did not create (found through GET
 * /customfields/workOrders), so no other test renames or archives it meanwhile.
 */
import { mergeTests } from '@playwright/test';
import { test as locationsTest, expect } from '../kits/locations.ts';
import { test as fieldsTest, patchExtraFields, valueFor } from '../kits/custom-fields.ts';
import { createWorkOrder } from '../kits/work-orders.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkPages } from '../lib/walk-pages.ts';
import type { ApiClient } from '../lib/client.ts';
import { expectCreated, uid } from '../lib/provision.ts';
import type { AssetEnvelope, AssetList, DataPage, Location, LocationEnvelope, WorkOrderEnvelope, WorkOrderList } from '../lib/api-types.ts';

/** A record that carries custom-field values: a work order, a location or an asset (Custom fields › Values). */
type WithExtraFields = WorkOrderEnvelope | LocationEnvelope | AssetEnvelope;

const test = mergeTests(fieldsTest, locationsTest);

const UNKNOWN_LABEL = 'CT no such field';

/** Walks a native list newest first until `id` appears; every item seen is checked by `each`. */
async function findListed(client: ApiClient, path: string, id: string, each: (item: Record<string, unknown>) => void): Promise<Record<string, unknown> | undefined> {
  let cursor: string | undefined;
  for (;;) {
    const page = await client.get<DataPage<{ id: string } & Record<string, unknown>>>(path, { query: { limit: 100, direction: 'desc', cursor } });
    expect(page.status).toBe(200);
    for (const item of page.body.data) each(item);
    const hit = page.body.data.find((item: { id: string }) => item.id === id);
    if (hit || !page.body.meta.pagination.has_more) return hit;
    cursor = page.body.meta.pagination.cursor;
  }
}

const lacksExtraFields = (path: string) => (item: Record<string, unknown>) => expect(Object.hasOwn(item, 'extraFields'), `${path} item ${String(item.id)} carries extraFields`).toBe(false);

test.describe('custom-field values on work orders', () => {
  test('work-order writes accept extraFields by label and the detail returns the value', { tag: ['@EXTRA-001'] }, async ({ api, profile, fields }) => {
    const definition = await fields.standing('workOrders');
    const first = valueFor(definition);
    const wo = await createWorkOrder(api, profile, { extraFields: { [definition.label]: first } });
    expect((await api.get<WorkOrderEnvelope>(`/work-orders/${wo.id}`)).body.data.extraFields![definition.label]).toEqual(first);
    const second = definition.options?.[1] ?? (definition.type === undefined || definition.type === 'text' ? `CT value ${uid()}` : first);
    await patchExtraFields(api, `/work-orders/${wo.id}`, { [definition.label]: second });
    expect((await api.get<WorkOrderEnvelope>(`/work-orders/${wo.id}`)).body.data.extraFields![definition.label]).toEqual(second);
  });

  test('work-order detail responses include extraFields', { tag: ['@EXTRA-002'] }, async ({ api, profile }) => {
    const wo = await createWorkOrder(api, profile);
    for (const id of [wo.id, (await api.get<WorkOrderList>('/work-orders', { query: { limit: 1 } })).body.data[0]!.id]) {
      const extraFields = (await api.get<WorkOrderEnvelope>(`/work-orders/${id}`)).body.data.extraFields;
      expect(extraFields !== null && typeof extraFields === 'object' && !Array.isArray(extraFields), `work order ${id} extraFields is an object`).toBe(true);
    }
  });

  test('native work-order and asset lists omit extraFields', { tag: ['@EXTRA-003'] }, async ({ api, profile, fields }) => {
    const definition = await fields.standing('workOrders');
    const wo = await createWorkOrder(api, profile, { extraFields: { [definition.label]: valueFor(definition) } });
    const listed = await findListed(api, '/work-orders', wo.id, lacksExtraFields('/work-orders'));
    expect(listed, 'the new work order is listed').toBeTruthy();
    const assets = await api.get<AssetList>('/assets', { query: { limit: 100 } });
    expect(assets.status).toBe(200);
    expect(assets.body.data.length).toBeGreaterThan(0);
    for (const item of assets.body.data) lacksExtraFields('/assets')(item);
  });
});

test.describe('custom-field values on assets and locations (inferred)', () => {
  test('location lists include extraFields only with expand=extra_fields', { tag: ['@EXTRA-005'] }, async ({ api, fields, locations }) => {
    const definition = await fields.standing('locations');
    const value = valueFor(definition);
    const mine = await locations.create({ extraFields: { [definition.label]: value } });
    const plain = await walkPages<Location>(api, '/locations', { limit: 100 });
    expect(plain.items.map((l) => l.id)).toContain(mine.id);
    for (const item of plain.items) lacksExtraFields('/locations')(item);
    const expanded = await walkPages<Location>(api, '/locations', { limit: 100, expand: 'extra_fields' });
    for (const item of expanded.items) expect(typeof item.extraFields, `location ${item.id} extraFields`).toBe('object');
    expect(expanded.items.find((l) => l.id === mine.id)?.extraFields![definition.label]).toEqual(value);
  });

  test('an extraFields key that is not an active label of the entity answers 400', { tag: ['@EXTRA-006'] }, async ({ api, profile, fields, locations }) => {
    const [archived] = await fields.create('workOrders');
    expect((await api.delete(`/customfields/workOrders/${archived!.id}`)).status).toBe(204);
    const workOrderLabels = new Set((await fields.list('workOrders')).map((d) => d.label));
    const assetOnly = (await fields.list('assets')).find((d) => !workOrderLabels.has(d.label));
    const refusedLabels = [UNKNOWN_LABEL, archived!.label];
    const wo = await createWorkOrder(api, profile);
    const location = await locations.create();
    const asset = expectCreated(await api.post<AssetEnvelope>('/assets', { json: { name: `CT asset ${uid()}` } })).body.data;
    const createWorkOrderWith = (extraFields: Record<string, unknown>) =>
      api.post('/work-orders', { json: { title: `CT refused ${uid()}`, ...profile.bodies.createWorkOrder, extraFields } });
    for (const label of refusedLabels) {
      const extraFields = { [label]: 'x' };
      expectProblem(await createWorkOrderWith(extraFields), 400, 'validation_error');
      expectProblem(await api.patch(`/work-orders/${wo.id}`, { json: { extraFields } }), 400, 'validation_error');
      expectProblem(await api.post('/locations', { json: { name: `CT refused ${uid()}`, extraFields } }), 400, 'validation_error');
      expectProblem(await api.patch(`/locations/${location.id}`, { json: { extraFields } }), 400, 'validation_error');
      expectProblem(await api.patch(`/assets/${asset.id}`, { json: { extraFields } }), 400, 'validation_error');
    }
    if (assetOnly) {
      expectProblem(await createWorkOrderWith({ [assetOnly.label]: valueFor(assetOnly) }), 400, 'validation_error');
      refusedLabels.push(assetOnly.label);
    }
    for (const path of [`/work-orders/${wo.id}`, `/locations/${location.id}`, `/assets/${asset.id}`]) {
      const stored = (await api.get<WithExtraFields>(path)).body.data.extraFields ?? {};
      for (const label of refusedLabels) expect(Object.hasOwn(stored, label), `${path} stored ${label}`).toBe(false);
    }
  });

  test('asset and location writes accept extraFields by label and their details include it', { tag: ['@EXTRA-007'] }, async ({ api, fields, locations }) => {
    for (const [entity, path] of [['assets', '/assets'], ['locations', '/locations']] as const) {
      const definition = await fields.standing(entity);
      const value = valueFor(definition);
      const created = expectCreated(await api.post<AssetEnvelope | LocationEnvelope>(path, { json: { name: `CT ${entity} ${uid()}`, extraFields: { [definition.label]: value } } })).body.data;
      const read = await api.get<AssetEnvelope | LocationEnvelope>(`${path}/${created.id}`);
      expect(read.status).toBe(200);
      expect(read.body.data.extraFields![definition.label]).toEqual(value);
      const [added] = await fields.create(entity);
      await patchExtraFields(api, `${path}/${created.id}`, { [added!.label]: 'second value' });
      expect((await api.get<AssetEnvelope | LocationEnvelope>(`${path}/${created.id}`)).body.data.extraFields).toMatchObject({ [definition.label]: value, [added!.label]: 'second value' });
    }
    const plain = await locations.create();
    expect(typeof (await locations.read(plain.id)).extraFields).toBe('object');
  });

  test("renaming a definition moves the stored values to the new label", { tag: ['@CF-015'] }, async ({ api, profile, fields, locations }) => {
    const [woField] = await fields.create('workOrders');
    const [locationField] = await fields.create('locations');
    const wo = await createWorkOrder(api, profile, { extraFields: { [woField!.label]: 'kept' } });
    const location = await locations.create({ extraFields: { [locationField!.label]: 'kept' } });
    for (const [entity, field, path] of [['workOrders', woField!, `/work-orders/${wo.id}`], ['locations', locationField!, `/locations/${location.id}`]] as const) {
      const label = fields.label();
      expect((await api.patch(`/customfields/${entity}/${field.id}`, { json: { field: { label } } })).status).toBe(204);
      const stored = (await api.get<WithExtraFields>(path)).body.data.extraFields!;
      expect(stored[label], `${path} value under the new label`).toBe('kept');
      expect(Object.hasOwn(stored, field.label), `${path} keeps nothing under the old label`).toBe(false);
    }
  });
});
