/**
 * Versioning and the native envelope (Versioning: version 1 under `/v1`, `meta.api_version` is `v1`;
 * Resources › Native envelope: single `{data, meta: {request_id, api_version}}`, list `{data: [...],
 * meta: {request_id, api_version, pagination: {has_more, cursor, total_count}}}`).
 */
import { test, expect } from '../fixtures.ts';
import { notAssessed } from '../lib/needs.ts';
import { sampleMeter } from '../kits/meters.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import type { TargetProfile } from '../../contract/profile.ts';

/**
 * One native single-resource response of each family the suite can create, 201 included, and their
 * reads; meters and readings when the target accepts the inferred create bodies (kits/meters.ts).
 */
async function singles(api: ApiClient, profile: TargetProfile): Promise<ApiResponse[]> {
  const { meter, reading } = await sampleMeter(api, profile);
  const created = await api.post('/work-orders', { json: { title: 'CT versioning', priority: 'medium', ...profile.bodies.createWorkOrder } });
  expect(created.status, created.text.slice(0, 300)).toBe(201);
  const wo = created.body.data;
  return [created, ...(meter ? [meter, await api.get(`/meters/${meter.body.data.id}`)] : []), ...(reading ? [reading] : []),
    await api.get(`/work-orders/${wo.id}`), await api.patch(`/work-orders/${wo.id}`, { json: { priority: 'high' } })];
}

/** One native list response of each stated native list (readings of a meter the organization has, if any). */
async function lists(api: ApiClient, profile: TargetProfile): Promise<ApiResponse[]> {
  const made = (await sampleMeter(api, profile)).meter?.body.data;
  const meterId = made?.id ?? (await api.get('/meters', { query: { limit: 1 } })).body?.data?.[0]?.id;
  return Promise.all(['/meters', '/work-orders', '/assets', ...(meterId ? [`/meters/${meterId}/readings`] : [])].map((path) => api.get(path, { query: { limit: 2 } })));
}

const where = (r: ApiResponse) => `${r.exchange.method} ${r.exchange.path}`;

test.describe('versioning', () => {
  test('the API lives under /v1: the same paths without it are not the API', { tag: ['@VER-001'] }, async ({ api, profile }) => {
    if (!/\/v1\/?$/.test(profile.baseUrl)) notAssessed(`the base URL ${profile.baseUrl} does not end in /v1`);
    const root = profile.baseUrl.replace(/\/v1\/?$/, '');
    expect((await api.get('/meters', { query: { limit: 1 } })).status, 'the same path under /v1 is the API').toBe(200);
    for (const path of ['/meters', '/work-orders', '/assets', '/workrequests', '/customfields/assets']) {
      const r = await api.get(`${root}${path}`);
      const isApiAnswer = r.status < 300 && /json/.test(r.headers['content-type'] ?? '');
      expect(isApiAnswer, `GET ${root}${path} answered ${r.status} ${r.headers['content-type'] ?? ''}`).toBe(false);
    }
    const write = await api.post(`${root}/work-orders`, { json: { title: 'CT not the API', ...profile.bodies.createWorkOrder } });
    expect(write.status, `POST ${root}/work-orders`).toBeGreaterThanOrEqual(300);
  });

  test('meta.api_version is v1 on native single and list responses', { tag: ['@VER-002'] }, async ({ api, profile }) => {
    for (const r of [...(await singles(api, profile)), ...(await lists(api, profile))]) {
      expect(r.status, where(r)).toBeLessThan(300);
      expect(r.body.meta?.api_version, where(r)).toBe('v1');
    }
  });

  test('single resources are {data, meta: {request_id, api_version}}', { tag: ['@VER-003'] }, async ({ api, profile }) => {
    for (const r of await singles(api, profile)) {
      expect(Object.keys(r.body).sort(), where(r)).toEqual(['data', 'meta']);
      expect(typeof r.body.data === 'object' && !Array.isArray(r.body.data), `${where(r)}: data is one resource`).toBe(true);
      expect(typeof r.body.data.id, `${where(r)}: data.id`).toBe('string');
      expect(typeof r.body.meta.request_id, `${where(r)}: meta.request_id`).toBe('string');
      expect(typeof r.body.meta.api_version, `${where(r)}: meta.api_version`).toBe('string');
    }
  });

  test('lists are {data: [...], meta: {request_id, api_version, pagination: {has_more, cursor}}}', { tag: ['@VER-004'] }, async ({ api, profile }) => {
    for (const r of await lists(api, profile)) {
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
