/**
 * Work requests, the list (Resources › Work request (compatibility); Endpoints › Other families:
 * `GET /workrequests`; Limits › Pagination). The list tests are `must` and read whatever the organization
 * holds (creating a request through the inferred route only when it has none); the inferred list
 * behaviour (extraFields without expand, expanded objects, the filters) makes its own requests. Writes,
 * uploads and thumbnails are work-requests-writes.spec.ts's.
 */
import { test, expect, pngImage } from '../kits/work-requests.ts';
import type { ApiClient } from '../lib/client.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkCompatPages } from '../lib/walk-pages.ts';
import { notAssessed } from '../lib/needs.ts';
import { anyAsset, anyLocation, expectCreated, uid, viaInferred } from '../lib/provision.ts';
import { proves } from '../lib/proves.ts';
import type { WorkOrderEnvelope, WorkRequest, WorkRequestList } from '../lib/api-types.ts';

const PRIORITIES = ['NONE', 'LOW', 'MEDIUM', 'HIGH'];
const STATUSES = ['PENDING', 'REJECTED', 'APPROVED', 'DONE'];
const CAMEL_CASE = /^[a-z][a-zA-Z0-9]*$/;

const isDateTime = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v) && !Number.isNaN(Date.parse(v));
const stringOrNull = (v: unknown) => v === null || typeof v === 'string';

/** Every listed work request (pages of 200), with `query`. */
async function allRequests(api: ApiClient, query: Record<string, string> = {}): Promise<Array<Record<string, any>>> {
  return (await walkCompatPages<WorkRequest>(api, '/workrequests', 'workRequests', { ...query, limit: 200 })).items;
}

/** The organization's work requests; when it has none, one is created through the inferred route. */
async function someRequests(api: ApiClient, query: Record<string, string> = {}): Promise<Array<Record<string, any>>> {
  const items = await allRequests(api, query);
  if (items.length > 0) return items;
  await viaInferred('creating a work request', (c) => c.post('/workrequests', { json: { title: `CT request ${uid()}` } }), api);
  return allRequests(api, query);
}

/** What is wrong with one attachment's stated fields and types (Resources › Work request: Attachment). */
function attachmentProblems(a: Record<string, any>, where: string): string[] {
  const problems = ['id', 'mimeType', 'fileName', 'url'].filter((f) => typeof a[f] !== 'string').map((f) => `${where}.${f} is not a string`);
  if (!isDateTime(a.createdAt)) problems.push(`${where}.createdAt is not a date-time`);
  for (const f of ['width', 'height']) if (a[f] !== undefined && a[f] !== null && !Number.isInteger(a[f])) problems.push(`${where}.${f} is not an integer`);
  return problems;
}

/** What is wrong with one work request's stated fields and types (Resources › Work request). */
function requestProblems(w: Record<string, any>): string[] {
  const where = `work request ${w.id}`;
  const wrong = (ok: boolean, field: string) => (ok ? [] : [`${where}.${field} is ${JSON.stringify(w[field])}`]);
  return [
    ...wrong(typeof w.id === 'string', 'id'),
    ...wrong(typeof w.title === 'string', 'title'),
    ...wrong(PRIORITIES.includes(w.priority), 'priority'),
    ...wrong(STATUSES.includes(w.requestStatus), 'requestStatus'),
    ...wrong(w.description === undefined || stringOrNull(w.description), 'description'),
    ...['createdAt', 'updatedAt'].flatMap((f) => wrong(w[f] === undefined || isDateTime(w[f]), f)),
    ...wrong(w.attachments === undefined || Array.isArray(w.attachments), 'attachments'),
    ...wrong(w.thumbnail === undefined || w.thumbnail === null || typeof w.thumbnail === 'object', 'thumbnail'),
    ...['assetId', 'locationId', 'workOrderId', 'approverTeamId'].flatMap((f) => wrong(w[f] === undefined || stringOrNull(w[f]), f)),
    ...wrong(w.sendEmailNotification === undefined || typeof w.sendEmailNotification === 'boolean', 'sendEmailNotification'),
    ...wrong(!w.creatorContactInfo || (typeof w.creatorContactInfo.type === 'string' && typeof w.creatorContactInfo.value === 'string'), 'creatorContactInfo'),
  ];
}

/** The field names of a listed request and its nested compatibility objects (not custom-field labels). */
function fieldNames(request: Record<string, any>): string[] {
  const names = Object.keys(request);
  for (const a of [...(request.attachments ?? []), ...(request.thumbnail ? [request.thumbnail] : [])]) names.push(...Object.keys(a));
  if (request.creatorContactInfo) names.push(...Object.keys(request.creatorContactInfo));
  return names;
}

test.describe('work requests: list', () => {
  test('GET /workrequests answers 200 {workRequests, nextCursor, nextPageUrl}', { tag: ['@WR-001'] }, async ({ api }) => {
    const page = await api.get<WorkRequestList>('/workrequests');
    expect(page.status).toBe(200);
    expect(Array.isArray(page.body.workRequests)).toBe(true);
    expect(stringOrNull(page.body.nextCursor), 'nextCursor is a string or null').toBe(true);
    expect(stringOrNull(page.body.nextPageUrl), 'nextPageUrl is a string or null').toBe(true);
    expect(page.body.nextCursor === null, 'nextCursor and nextPageUrl are null together').toBe(page.body.nextPageUrl === null);
  });

  test('work requests carry the stated fields and types', { tag: ['@WR-002'] }, async ({ api }) => {
    const items = await someRequests(api);
    expect(items.flatMap(requestProblems), 'fields of the wrong type or value').toEqual([]);
  });

  test('attachments are {id, mimeType, fileName, url, createdAt, width, height}', { tag: ['@WR-003'] }, async ({ api }) => {
    let items = await someRequests(api);
    if (!items.some((w) => w.attachments?.length)) {
      await viaInferred('uploading a work-request attachment', (c) => c.post(`/workrequests/${items[0]!.id}/attachments`, { query: { fileName: 'ct.png' }, body: pngImage(2, 2), headers: { 'content-type': 'image/png' } }), api, [201]);
      items = await allRequests(api);
    }
    const attachments = items.flatMap((w) => [...(w.attachments ?? []), ...(w.thumbnail ? [w.thumbnail] : [])].map((a) => [w.id, a] as const));
    expect(attachments.length, 'some work request has an attachment').toBeGreaterThan(0);
    expect(attachments.flatMap(([id, a]) => attachmentProblems(a, `attachment ${a.id} of ${id}`)), 'attachment fields of the wrong type').toEqual([]);
  });

  test('work requests and their nested objects use camelCase field names', { tag: ['@WIRE-002'] }, async ({ api }) => {
    const page = await api.get<WorkRequestList>('/workrequests', { query: { limit: 200 } });
    expect(Object.keys(page.body).filter((name) => !CAMEL_CASE.test(name)), 'list fields not in camelCase').toEqual([]);
    const items = await someRequests(api);
    expect(items.flatMap((w) => fieldNames(w).filter((name) => !CAMEL_CASE.test(name)).map((name) => `${w.id}: ${name}`)), 'work-request fields not in camelCase').toEqual([]);
  });

  test('expand embeds the asset, location and work order; without expand they are absent', { tag: ['@WR-004', '@WR-018'] }, async ({ api }) => {
    for (const w of await someRequests(api)) {
      for (const key of ['asset', 'location', 'workOrder']) expect(w, proves(['WR-018'], `work request ${w.id} without expand`)).not.toHaveProperty(key);
    }
    const expanded = await allRequests(api, { expand: 'asset,location,work_order' });
    const links: Array<[link: string, key: string]> = [['assetId', 'asset'], ['locationId', 'location'], ['workOrderId', 'workOrder']];
    let seen = 0;
    for (const w of expanded) {
      for (const [link, key] of links) {
        if (!w[link]) continue;
        seen++;
        const embedded = w[key];
        if (embedded === null && key === 'workOrder') {
          // A soft-deleted work order is unavailable: nothing to embed.
          expect((await api.get(`/work-orders/${w[link]}`)).status, proves(['WR-004'], `work request ${w.id}: workOrder is null, so work order ${w[link]} is unavailable`)).toBe(404);
          continue;
        }
        expect(embedded !== null && typeof embedded === 'object', proves(['WR-004'], `work request ${w.id} embeds ${key} for ${link} ${w[link]}`)).toBe(true);
        if ('id' in embedded) expect(embedded.id, proves(['WR-004'], `work request ${w.id}: ${key}.id`)).toBe(w[link]);
      }
    }
    if (seen === 0) notAssessed('no work request of the organization has an asset, a location or a work order');
  });

  test('expand=extra_fields includes each request\'s extraFields', { tag: ['@WR-005'] }, async ({ api }) => {
    const items = await someRequests(api, { expand: 'extra_fields' });
    for (const w of items) {
      expect(w.extraFields !== null && typeof w.extraFields === 'object' && !Array.isArray(w.extraFields), `work request ${w.id} has an extraFields object`).toBe(true);
    }
  });

  test('an expand value outside asset, location, work_order and extra_fields answers 400', { tag: ['@WR-006'] }, async ({ api }) => {
    for (const expand of ['owner', 'ASSET', 'workOrder', 'work-order', 'asset,requester', 'extraFields']) {
      expectProblem(await api.get('/workrequests', { query: { expand } }), 400, 'validation_error');
    }
  });
});

test.describe('work requests: inferred list behaviour', () => {
  test('without expand=extra_fields listed requests omit extraFields', { tag: ['@WR-015'] }, async ({ api, requests }) => {
    await requests.create();
    for (const query of [{}, { expand: 'asset' }]) {
      const page = await api.get<WorkRequestList>('/workrequests', { query: { ...query, limit: 200 } });
      expect(page.body.workRequests.length).toBeGreaterThan(0);
      for (const w of page.body.workRequests) expect(w, `work request ${w.id}`).not.toHaveProperty('extraFields');
    }
  });

  test('expanded objects are the related records in camelCase; null without a link', { tag: ['@WR-016'] }, async ({ api, profile, requests }) => {
    const asset = await anyAsset(api, profile);
    const locationId = await anyLocation(api, profile);
    const linked = await requests.create({ assetId: asset.id, locationId });
    const approved = await requests.create();
    const wo = expectCreated(await api.post<WorkOrderEnvelope>('/work-orders', { json: { title: `CT approval ${uid()}`, ...profile.bodies.createWorkOrder, workRequestId: approved.id } }));
    const bare = await requests.create();
    const expand = { expand: 'asset,location,work_order' };
    const l = (await requests.find(linked.id, expand))!;
    expect(l.asset!.id).toBe(asset.id);
    expect(l.location!.id).toBe(locationId);
    expect(l.workOrder).toBeNull();
    for (const name of [...Object.keys(l.asset!), ...Object.keys(l.location!)]) expect(name).toMatch(CAMEL_CASE);
    const a = (await requests.find(approved.id, expand))!;
    expect(a.workOrder!.id).toBe(wo.body.data.id);
    expect(a.workOrder!.title).toBe(wo.body.data.title);
    for (const name of Object.keys(a.workOrder!)) expect(name).toMatch(CAMEL_CASE);
    const b = (await requests.find(bare.id, expand))!;
    expect(b).toMatchObject({ asset: null, location: null, workOrder: null });
  });

  test('the priority filter returns only requests of that priority', { tag: ['@WR-007'] }, async ({ api, requests }) => {
    const high = await requests.create({ priority: 'HIGH' });
    for (const priority of PRIORITIES) {
      const items = await allRequests(api, { priority });
      for (const w of items) expect(w.priority, `priority=${priority} returned ${w.id}`).toBe(priority);
      if (priority === 'HIGH') expect(items.map((w) => w.id)).toContain(high.id);
      else expect(items.map((w) => w.id)).not.toContain(high.id);
    }
  });

  test('the request-status filter returns only requests in that status', { tag: ['@WR-008'] }, async ({ api, requests }) => {
    const pending = await requests.create();
    for (const requestStatus of STATUSES) {
      const items = await allRequests(api, { requestStatus });
      for (const w of items) expect(w.requestStatus, `requestStatus=${requestStatus} returned ${w.id}`).toBe(requestStatus);
      if (requestStatus === 'PENDING') expect(items.map((w) => w.id)).toContain(pending.id);
      else expect(items.map((w) => w.id)).not.toContain(pending.id);
    }
    expectProblem(await api.get('/workrequests', { query: { requestStatus: 'pending' } }), 400, 'validation_error');
  });
});
