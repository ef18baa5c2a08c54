/**
 * Request portals (Resources › Work request portal (compatibility); Endpoints › Other families). The list
 * tests are `must` and read whatever the organization holds; portal writes are inferred.
 */
import { test, expect } from '../kits/work-requests.ts';
import { foreignRecord } from '../lib/foreign.ts';
import type { ApiClient } from '../lib/client.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkCompatPages } from '../lib/walk-pages.ts';
import { anyAsset, uid, viaInferred } from '../lib/provision.ts';
import type { Portal, PortalList, PortalWrapper } from '../lib/api-types.ts';

const TEXT_FIELDS = ['title', 'portalUrl', 'welcomeText', 'descriptionPlaceholder', 'contactInformation'];
const LINKS = ['assetId', 'locationId'];
const FLAGS = ['emailOnly', 'sendEmailNotification'];
const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;
const UNKNOWN = 'prt_doesnotexist0000';

/** Every listed portal; when the organization has none, one is created through the inferred route. */
async function somePortals(api: ApiClient): Promise<Array<Record<string, any>>> {
  const list = async () => (await walkCompatPages<Portal>(api, '/workrequestportals', 'workRequestPortals', { limit: 200 })).items;
  const items = await list();
  if (items.length > 0) return items;
  await viaInferred('creating a request portal', (c) => c.post('/workrequestportals', { json: { title: `CT portal ${uid()}` } }), api);
  return list();
}

test.describe('request portals: list', () => {
  test('GET /workrequestportals answers 200 {workRequestPortals, nextCursor, nextPageUrl}', { tag: ['@PORTAL-001'] }, async ({ api }) => {
    const page = await api.get<PortalList>('/workrequestportals');
    expect(page.status).toBe(200);
    expect(Array.isArray(page.body.workRequestPortals)).toBe(true);
    for (const f of ['nextCursor', 'nextPageUrl'] as const) expect(page.body[f] === null || typeof page.body[f] === 'string', `${f} is a string or null`).toBe(true);
    expect(page.body.nextCursor === null, 'nextCursor and nextPageUrl are null together').toBe(page.body.nextPageUrl === null);
  });

  test('portals carry the stated fields: booleans emailOnly and sendEmailNotification, strings otherwise', { tag: ['@PORTAL-002'] }, async ({ api }) => {
    const problems = (await somePortals(api)).flatMap((p) => [
      ...['id', 'title'].filter((f) => typeof p[f] !== 'string').map((f) => `portal ${p.id}: ${f} is not a string`),
      ...[...TEXT_FIELDS, ...LINKS].filter((f) => !(f in p)).map((f) => `portal ${p.id}: ${f} is missing`),
      ...[...TEXT_FIELDS, ...LINKS].filter((f) => f in p && p[f] !== null && typeof p[f] !== 'string').map((f) => `portal ${p.id}: ${f} is not a string (or null when unset)`),
      ...FLAGS.filter((f) => typeof p[f] !== 'boolean').map((f) => `portal ${p.id}: ${f} is not a boolean`),
    ]);
    expect(problems).toEqual([]);
  });

  test('portals use camelCase field names', { tag: ['@WIRE-002'] }, async ({ api }) => {
    const page = await api.get<PortalList>('/workrequestportals', { query: { limit: 200 } });
    expect(Object.keys(page.body).filter((name) => !CAMEL_CASE.test(name)), 'list fields not in camelCase').toEqual([]);
    const portals = await somePortals(api);
    expect(portals.flatMap((p) => Object.keys(p).filter((name) => !CAMEL_CASE.test(name)).map((name) => `${p.id}: ${name}`)), 'portal fields not in camelCase').toEqual([]);
  });
});

test.describe('request portals: writes', () => {
  test('a portal is created, read, updated and deleted, and the list reflects each change', { tag: ['@PORTAL-003'] }, async ({ api, profile, requests }) => {
    const asset = await anyAsset(api, profile);
    const title = `CT portal ${uid()}`;
    const created = await api.post<PortalWrapper>('/workrequestportals', { json: { title, welcomeText: 'Hello', assetId: asset.id, emailOnly: true } });
    expect(created.status).toBe(200);
    const portal = created.body.workRequestPortal;
    expect(portal).toMatchObject({ title, welcomeText: 'Hello', assetId: asset.id, emailOnly: true, sendEmailNotification: false });
    expect(typeof portal.portalUrl, 'the service generates portalUrl').toBe('string');
    expect((await api.get<PortalWrapper>(`/workrequestportals/${portal.id}`)).body.workRequestPortal).toEqual(portal);
    expect(await requests.findPortal(portal.id)).toEqual(portal);

    const renamed = `CT renamed ${uid()}`;
    const patched = await api.patch<PortalWrapper>(`/workrequestportals/${portal.id}`, { json: { title: renamed, emailOnly: false, assetId: null } });
    expect(patched.status).toBe(200);
    expect(patched.body.workRequestPortal).toMatchObject({ id: portal.id, title: renamed, emailOnly: false, assetId: null, welcomeText: 'Hello', portalUrl: portal.portalUrl });
    expect((await api.get<PortalWrapper>(`/workrequestportals/${portal.id}`)).body.workRequestPortal).toEqual(patched.body.workRequestPortal);
    expect(await requests.findPortal(portal.id)).toEqual(patched.body.workRequestPortal);

    const deleted = await api.delete(`/workrequestportals/${portal.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectProblem(await api.get(`/workrequestportals/${portal.id}`), 404);
    expect(await requests.findPortal(portal.id), 'a deleted portal leaves the list').toBeUndefined();
    expectProblem(await api.delete(`/workrequestportals/${portal.id}`), 404);
    expectProblem(await api.patch(`/workrequestportals/${portal.id}`, { json: { title: 'gone' } }), 404);
  });

  test('unknown portals and related records the organization does not have answer 404', { tag: ['@PORTAL-003'] }, async ({ api, as, requests }) => {
    expectProblem(await api.get(`/workrequestportals/${UNKNOWN}`), 404);
    expectProblem(await api.post('/workrequestportals', { json: { title: 'x', assetId: 'ast_doesnotexist000' } }), 404);
    expectProblem(await api.post('/workrequestportals', { json: { title: 'x', locationId: 'loc_doesnotexist000' } }), 404);
    const foreignAsset = (await foreignRecord(as.otherOrg(), '/assets')).id;
    const portal = await requests.createPortal();
    expectProblem(await api.patch(`/workrequestportals/${portal.id}`, { json: { assetId: foreignAsset } }), 404);
    expect((await api.get<PortalWrapper>(`/workrequestportals/${portal.id}`)).body.workRequestPortal.assetId).toBeNull();
  });

  test('an invalid portal body answers 400 and changes nothing', { tag: ['@PORTAL-003'] }, async ({ api, requests }) => {
    for (const json of [{}, { title: '' }, { title: 'x', emailOnly: 'yes' }, { title: 'x', portalUrl: 'https://example.com' }]) {
      expectProblem(await api.post('/workrequestportals', { json }), 400, 'validation_error');
    }
    const portal = await requests.createPortal();
    for (const json of [{}, { title: 42 }, { sendEmailNotification: 'no' }]) {
      expectProblem(await api.patch(`/workrequestportals/${portal.id}`, { json }), 400, 'validation_error');
    }
    expect((await api.get<PortalWrapper>(`/workrequestportals/${portal.id}`)).body.workRequestPortal).toEqual(portal);
  });
});
