/**
 * Wire styles (What the service does): native resources are snake_case inside the `data`/`meta`
 * envelope except `parentId`, `childrenIds`, `extraFields` (and the work order's `workRequestId`); the
 * work-order parts section has no envelope; query names are case-sensitive; and the route families the
 * description excludes (vendors, purchase orders, ..., webhook subscriptions, inventory adjustments,
 * asset hierarchy mutations) have no route: nothing there answers 2xx.
 */
import { test, expect } from '../kits/work-orders.ts';
import { walkPages } from '../lib/walk-pages.ts';
import { meterBody, sampleMeter } from '../kits/meters.ts';
import { viaInferred } from '../lib/provision.ts';
import { concurrently } from '../lib/concurrently.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import type { Asset, AssetList, DataPage, MeterList, PartsSection } from '../lib/api-types.ts';
import { problemOf } from '../lib/expect-problem.ts';

/** camelCase names the description gives native resources (Native style; Work order (native)). */
const CAMEL_CASE_ALLOWED = new Set(['parentId', 'childrenIds', 'extraFields', 'workRequestId']);
const SNAKE_CASE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Field names (with their JSON paths) that are neither snake_case nor an allowed camelCase name; `extraFields` values are keyed by label. */
function nonSnakeCase(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => nonSnakeCase(v, `${path}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const here = `${path}/${key}`;
    if (key === 'extraFields') return [];
    return [...(SNAKE_CASE.test(key) || CAMEL_CASE_ALLOWED.has(key) ? [] : [here]), ...nonSnakeCase(v, here)];
  });
}

function expectSnakeCase(responses: ApiResponse[]): void {
  for (const r of responses) {
    expect(r.status, `${r.exchange.method} ${r.exchange.path}`).toBeLessThan(300);
    expect(nonSnakeCase(r.body), `${r.exchange.method} ${r.exchange.path}: field names`).toEqual([]);
  }
}

/** Requests to routes the description says do not exist: none may answer 2xx. */
async function expectNoRoute(api: ApiClient, requests: Array<[string, string, unknown?]>): Promise<void> {
  // Independent requests, sent at once (lib/concurrently.ts); judged in order.
  const answers = await concurrently(requests, ([method, path, json]) => api.send(method, path, json === undefined ? {} : { json }));
  for (const [i, r] of answers.entries()) expect(r.status, `${requests[i]![0]} ${requests[i]![1]} answered ${r.status}`).toBeGreaterThanOrEqual(300);
}

/**
 * GET and POST under each spelling of each family, and GET of an id under its first spelling: a family
 * that has any route has one of these (a family reachable only by PATCH or DELETE of an id it never lists
 * or reads is not one a client could use). The spellings follow the description's own two path styles,
 * hyphenated (`/work-orders`) and joined (`/workorders`); a family read by id only and under its second
 * spelling only would be a guess upon a guess.
 */
function everyMethod(families: string[][]): Array<[string, string, unknown?]> {
  return families.flatMap(([first, ...others]): Array<[string, string, unknown?]> => [
    ...[first!, ...others].flatMap((p): Array<[string, string, unknown?]> => [['GET', p], ['POST', p, { name: 'CT no route' }]]),
    ['GET', `${first}/ct_any_id`],
  ]);
}

test.describe('wire styles', () => {
  test('native resources use snake_case, except parentId, childrenIds, extraFields and workRequestId', { tag: ['@WIRE-001'] }, async ({ api, profile, workOrders }) => {
    const { meter, reading } = await sampleMeter(api, profile);
    const meterId = meter?.body.data.id ?? (await api.get<MeterList>('/meters', { query: { limit: 1 } })).body?.data?.[0]?.id;
    const wo = await workOrders.create();
    expectSnakeCase([
      ...(meter ? [meter] : []), ...(reading ? [reading] : []),
      ...(meterId ? [await api.get(`/meters/${meterId}`), await api.get(`/meters/${meterId}/readings`)] : []),
      await api.get('/meters', { query: { limit: 20 } }),
      await api.get(`/work-orders/${wo.id}`), await api.get('/work-orders', { query: { limit: 20 } }),
      await api.get('/assets', { query: { limit: 20 } }),
    ]);
  });

  test('inferred native routes use snake_case too (locations, parts, identifiers, asset detail)', { tag: ['@SPEC-005'] }, async ({ api }) => {
    const responses: ApiResponse[] = [];
    for (const path of ['/locations', '/parts', '/identifiers']) {
      const list = await viaInferred(`GET ${path}`, (c) => c.get<DataPage<{ id: string }>>(path, { query: { limit: 20 } }), api, [200]);
      responses.push(list);
      const first = list.body.data[0];
      if (first && path !== '/identifiers') responses.push(await viaInferred(`GET ${path}/{id}`, (c) => c.get(`${path}/${first.id}`), api, [200]));
    }
    const asset = (await api.get<AssetList>('/assets', { query: { limit: 1 } })).body.data[0]!;
    responses.push(await viaInferred('GET /assets/{id}', (c) => c.get(`/assets/${asset.id}`), api, [200]));
    expectSnakeCase(responses);
  });

  test('the work-order parts section comes directly, without a data envelope', { tag: ['@WIRE-003'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    const section = await api.get<PartsSection>(`/work-orders/${wo.id}/parts`);
    expect(section.status).toBe(200);
    expect(section.body.workOrderId).toBe(wo.id);
    expect(section.body).not.toHaveProperty('data');
    expect(section.body).not.toHaveProperty('meta');
    expect(Array.isArray(section.body.items)).toBe(true);
    expect(typeof section.body.capabilities).toBe('object');
  });

  test('query-parameter names are case-sensitive: LIMIT is not limit', { tag: ['@WIRE-004'] }, async ({ api, profile }) => {
    for (let have = (await api.get<MeterList>('/meters', { query: { limit: 1 } })).body.meta.pagination.total_count ?? 0; have < 21; have++) {
      await api.post('/meters', { json: await meterBody(api, profile) });
    }
    for (const name of ['LIMIT', 'Limit']) {
      const r = await api.get<MeterList>('/meters', { query: { [name]: 1 } });
      if (r.status === 400) expect(problemOf(r)?.code).toBe('validation_error');
      else {
        expect(r.status).toBe(200);
        expect(r.body.data.length, `${name}=1 is not a page size`).toBe(20);
      }
    }
    const plain = await api.get<AssetList>('/assets', { query: { limit: 5 } });
    const upper = await api.get<AssetList>('/assets', { query: { limit: 5, DIRECTION: 'desc' } });
    if (upper.status === 400) expect(problemOf(upper)?.code).toBe('validation_error');
    else expect(upper.body.data.map((a: { id: string }) => a.id), 'DIRECTION=desc is not a direction').toEqual(plain.body.data.map((a: { id: string }) => a.id));
  });

  test('vendors, purchase orders, maintenance plans, procedures, teams, users and conversations have no route', { tag: ['@WIRE-006'] }, async ({ api }) => {
    await expectNoRoute(api, everyMethod([
      ['/vendors'], ['/purchase-orders', '/purchaseorders'], ['/maintenance-plans', '/maintenanceplans'],
      ['/procedures'], ['/teams'], ['/users'], ['/conversations'],
    ]));
  });

  test('no route adjusts parts inventory or moves assets in their hierarchy', { tag: ['@WIRE-007'] }, async ({ api, profile }) => {
    const part = profile.fixtures.stockedParts?.[0];
    const partId = part?.partId ?? 'ct_any_part';
    const adjustment = { quantity: 5, location_id: part?.locationId ?? 'ct_any_location', locationId: part?.locationId ?? 'ct_any_location' };
    await expectNoRoute(api, [
      ['POST', `/parts/${partId}/stock`, adjustment], ['PUT', `/parts/${partId}/stock`, adjustment], ['PATCH', `/parts/${partId}/stock`, adjustment],
      ['POST', `/parts/${partId}/adjustments`, adjustment], ['POST', `/parts/${partId}/inventory`, adjustment],
      ['POST', '/inventory/adjustments', { ...adjustment, part_id: partId }], ['POST', '/stock-adjustments', { ...adjustment, part_id: partId }],
    ]);
    const assets = (await walkPages<Asset>(api, '/assets', { limit: 100 })).items;
    const child = assets.find((a) => a.parent_asset_id);
    const loose = assets.find((a) => !a.parent_asset_id && a.id !== child?.parent_asset_id)!;
    expect(loose, 'an asset without a parent').toBeDefined();
    const target = assets.find((a) => a.id !== loose.id)!;
    await expectNoRoute(api, [
      ['POST', `/assets/${target.id}/children`, { asset_id: loose.id }], ['PUT', `/assets/${loose.id}/parent`, { parent_asset_id: target.id }],
      ['POST', `/assets/${loose.id}/move`, { parent_asset_id: target.id }], ['PATCH', `/assets/${loose.id}/hierarchy`, { parent_asset_id: target.id }],
    ]);
    // PATCH /assets/{id} is an inferred route: whatever it answers — a refusal that moved the asset all
    // the same is a hierarchy mutation too — parent_asset_id stays read-only, so the assets are read again.
    await api.patch(`/assets/${loose.id}`, { json: { parent_asset_id: target.id } });
    if (child) await api.patch(`/assets/${child.id}`, { json: { parent_asset_id: null } });
    const after = new Map((await walkPages<Asset>(api, '/assets', { limit: 100 })).items.map((a) => [a.id, a]));
    expect(after.get(loose.id)?.parent_asset_id ?? null, `${loose.id} did not move`).toBeNull();
    if (child) expect(after.get(child.id)?.parent_asset_id, `${child.id} did not move`).toBe(child.parent_asset_id);
  });

  test('there are no webhook subscription routes', { tag: ['@WIRE-008'] }, async ({ api }) => {
    // Not /events: the description leaves outgoing events "not shown", so an event route is not excluded.
    await expectNoRoute(api, everyMethod([['/webhooks', '/webhook-subscriptions', '/webhooksubscriptions', '/webhooks/subscriptions', '/subscriptions']]));
  });
});
