/**
 * Versioning and the native envelope (Versioning: version 1 under `/v1`, `meta.api_version` is `v1`;
 * Resources › Native envelope: single `{data, meta: {request_id, api_version}}`, list `{data: [...],
 * meta: {request_id, api_version, pagination: {has_more, cursor, total_count}}}`).
 */
import { test, expect } from '../fixtures.ts';
import { expectSucceeded } from '../lib/expect-success.ts';
import { notAssessed } from '../lib/needs.ts';
import { listSamples, meterSamples, named, workOrderSamples, type SampleContext } from '../lib/sample-sets.ts';
import type { ApiResponse } from '../lib/client.ts';
import { proves } from '../lib/proves.ts';
import type { DataPage, MeterEnvelope, MeterReadingEnvelope, WorkOrderEnvelope } from '../lib/api-types.ts';

/** A native single-resource answer as described (Resources › Native envelope); the tests check it is one. */
type Single = WorkOrderEnvelope | MeterEnvelope | MeterReadingEnvelope;

/**
 * Native single-resource responses of the shared samples (suites/lib/sample-sets.ts): a work order's
 * create (201), read and update, and a meter's create, reading create (201) and read, when the target
 * accepts the inferred meter bodies (kits/meters.ts). The work order's create must have succeeded.
 */
async function singles(ctx: SampleContext): Promise<ApiResponse<Single>[]> {
  const workOrder = await workOrderSamples(ctx);
  expectSucceeded(workOrder.created!);
  const { meter, reading, meterRead } = await meterSamples(ctx);
  return [...named(workOrder, ['created', 'read', 'updated']), ...[meter, reading, meterRead].filter((r) => r !== undefined)] as ApiResponse<Single>[];
}

/** One native list response of each stated native list (readings of a listed meter, if any), shared. */
async function lists(ctx: SampleContext): Promise<ApiResponse<DataPage>[]> {
  return Object.values(await listSamples(ctx)).filter((r) => r !== undefined) as ApiResponse<DataPage>[];
}

const where = (r: ApiResponse) => `${r.exchange.method} ${r.exchange.path}`;

test.describe('versioning', () => {
  test('the API lives under /v1: the same paths without it are not the API', { tag: ['@VER-001', '@VER-007'] }, async ({ api, profile }) => {
    if (!/\/v1\/?$/.test(profile.baseUrl)) notAssessed(`the base URL ${profile.baseUrl} does not end in /v1`);
    const root = profile.baseUrl.replace(/\/v1\/?$/, '');
    expect((await api.get('/meters', { query: { limit: 1 } })).status, proves(['VER-001'], 'the same path under /v1 is the API')).toBe(200);
    for (const path of ['/meters', '/work-orders', '/assets', '/workrequests', '/customfields/assets']) {
      const r = await api.get(`${root}${path}`);
      const isApiAnswer = r.status < 300 && /json/.test(r.headers['content-type'] ?? '');
      expect(isApiAnswer, proves(['VER-007'], `GET ${root}${path} answered ${r.status} ${r.headers['content-type'] ?? ''}`)).toBe(false);
    }
    const write = await api.post(`${root}/work-orders`, { json: { title: 'CT not the API', ...profile.bodies.createWorkOrder } });
    expect(write.status, proves(['VER-007'], `POST ${root}/work-orders`)).toBeGreaterThanOrEqual(300);
  });

  test('meta.api_version is v1 on native single and list responses', { tag: ['@VER-002'] }, async ({ api, as, profile }) => {
    for (const r of [...(await singles({ api, as, profile })), ...(await lists({ api, as, profile }))]) {
      expect(r.status, where(r)).toBeLessThan(300);
      expect(r.body.meta?.api_version, `${where(r)}: meta.api_version`).toBe('v1');
    }
  });

  test('single resources are {data, meta: {request_id, api_version}}', { tag: ['@VER-003'] }, async ({ api, as, profile }) => {
    for (const r of await singles({ api, as, profile })) {
      expect(r.status, where(r)).toBeLessThan(300);
      expect(Object.keys(r.body).sort(), where(r)).toEqual(['data', 'meta']);
      expect(typeof r.body.data === 'object' && !Array.isArray(r.body.data), `${where(r)}: data is one resource`).toBe(true);
      expect(typeof r.body.data.id, `${where(r)}: data.id`).toBe('string');
      expect(typeof r.body.meta.request_id, `${where(r)}: meta.request_id`).toBe('string');
      expect(typeof r.body.meta.api_version, `${where(r)}: meta.api_version`).toBe('string');
    }
  });

  test('lists are {data: [...], meta: {request_id, api_version, pagination: {has_more, cursor}}}', { tag: ['@VER-004'] }, async ({ api, as, profile }) => {
    for (const r of await lists({ api, as, profile })) {
      expect(r.status, where(r)).toBe(200);
      expect(Object.keys(r.body).sort(), where(r)).toEqual(['data', 'meta']);
      expect(Array.isArray(r.body.data), `${where(r)}: data is an array`).toBe(true);
      expect(typeof r.body.meta.request_id, `${where(r)}: meta.request_id`).toBe('string');
      expect(typeof r.body.meta.api_version, `${where(r)}: meta.api_version`).toBe('string');
      const pagination = r.body.meta.pagination;
      expect(typeof pagination?.has_more, `${where(r)}: pagination.has_more`).toBe('boolean');
      expect('cursor' in pagination, `${where(r)}: pagination.cursor`).toBe(true);
      if (pagination.has_more) expect(typeof pagination.cursor, `${where(r)}: a cursor to continue`).toBe('string');
    }
  });
});
