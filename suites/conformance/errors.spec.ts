/**
 * Problem details (Errors): every error of every family is `application/problem+json` with `type`
 * (`{errors_url}/<code>`), `title`, `status`, `detail`, `request_id` and `code`; validation failures and
 * malformed JSON are 400 `validation_error`. The universal checks prove these on every response; these
 * tests prove them explicitly on errors of the stated operations (each test a third of them, so the five
 * together cover every operation) and of each cross-cutting kind, sampled so that each test fails only
 * its own requirement (the universal checks record theirs, on every error of the run).
 */
import { test, expect } from '../kits/work-orders.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { notAssessed } from '../lib/needs.ts';
import { operations } from '../lib/operations.ts';
import { createMeter } from '../kits/meters.ts';
import type { ApiClient, ApiResponse, RequestOptions } from '../lib/client.ts';
import type { Roles } from '../fixtures.ts';
import type { Operation } from '../../contract/openapi.ts';
import type { TargetProfile } from '../../contract/profile.ts';

const isEnum = (schema: unknown) => typeof schema === 'object' && schema !== null && 'enum' in schema;

/**
 * A request of the operation that fails: unknown ids in its path (an `{entity}` alone gets an unlisted
 * value), else `limit=0`, else a JSON array for its object body.
 */
function failingRequest(op: Operation): { path: string; options: RequestOptions } {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const namesRecord = pathParams.some((p) => !isEnum(p.schema));
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = pathParams.find((q) => q.name === name)!;
    if (isEnum(p.schema)) return namesRecord ? String((p.schema as { enum: string[] }).enum[0]) : 'not_a_listed_value';
    return (p.schema as { type?: string }).type === 'integer' ? '2147483647' : `ct_unknown_${name}`;
  });
  if (pathParams.length > 0) return { path, options: op.requestBody ? { json: {} } : {} };
  if (op.parameters.some((p) => p.name === 'limit')) return { path, options: { query: { limit: 0 } } };
  return { path, options: { json: [] } };
}

/** How many parts the stated operations are split into: each problem-details test takes one. */
const SAMPLE_PARTS = 3;

/**
 * One error response of each stated operation of part `part` (every SAMPLE_PARTS-th, from `part`), and
 * of the cross-cutting kinds the profile allows, split the same way (every kind still reaches at least one
 * of the five tests, and every error of the run passes the universal checks of the same rules).
 */
async function errorSamples(api: ApiClient, as: Roles, profile: TargetProfile, part: number): Promise<ApiResponse[]> {
  const sample = api;
  const samples: ApiResponse[] = [];
  const ofPart = (_: unknown, i: number) => i % SAMPLE_PARTS === part % SAMPLE_PARTS;
  for (const op of operations.filter((o) => !o.inferred).filter(ofPart)) {
    const { path, options } = failingRequest(op);
    samples.push(await sample.send(op.method, path, options));
  }
  const crossCutting: Array<() => Promise<ApiResponse>> = [
    () => as.anonymous().get('/meters'),
    () => as.header('Basic dXNlcjpwYXNzd29yZA==').get('/work-orders'),
    () => as.header('Bearer pk_live_4eC39HqLyjWDarjtT1zdp7dc').get('/assets'),
    () => as.header('Bearer sk_live_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp').get('/meters'),
    () => sample.get('/no-such-family'),
    ...(profile.keys.noScopes ? [() => as.key(profile.keys.noScopes!).get('/meters')] : []),
    ...(profile.keys.moduleDisabled?.meters ? [() => as.moduleDisabled('meters').get('/meters')] : []),
    ...(profile.fixtures.meterUsedByAutomation ? [() => sample.delete(`/meters/${profile.fixtures.meterUsedByAutomation}`)] : []),
  ];
  for (const send of crossCutting.filter(ofPart)) samples.push(await send());
  for (const s of samples) expect(s.status, `${s.exchange.method} ${s.exchange.path} is an error: ${s.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  return samples;
}

const where = (r: ApiResponse) => `${r.status} to ${r.exchange.method} ${r.exchange.path}`;

test.describe('problem details', () => {
  test('every error has content type application/problem+json', { tag: ['@ERR-001'] }, async ({ api, as, profile }) => {
    for (const r of await errorSamples(api, as, profile, 0)) {
      expect.soft(r.headers['content-type'] ?? '', where(r)).toMatch(/^application\/problem\+json(;|$)/);
    }
  });

  test('every problem has string type, title, detail, request_id and code, and an integer status', { tag: ['@ERR-002'] }, async ({ api, as, profile }) => {
    for (const r of await errorSamples(api, as, profile, 1)) {
      for (const field of ['type', 'title', 'detail', 'request_id', 'code']) expect.soft(typeof r.body?.[field], `${where(r)}: ${field}`).toBe('string');
      expect.soft(Number.isInteger(r.body?.status), `${where(r)}: status is an integer`).toBe(true);
    }
  });

  test('type is {errors_url}/<code>', { tag: ['@ERR-003'] }, async ({ api, as, profile }) => {
    for (const r of await errorSamples(api, as, profile, 2)) {
      expect.soft(String(r.body?.type), where(r)).toMatch(new RegExp(`/${String(r.body?.code)}$`));
    }
  });

  test('status equals the HTTP status', { tag: ['@ERR-004'] }, async ({ api, as, profile }) => {
    for (const r of await errorSamples(api, as, profile, 3)) expect.soft(r.body?.status, where(r)).toBe(r.status);
  });

  test('every type shares one {errors_url}', { tag: ['@ERR-005'] }, async ({ api, as, profile }) => {
    const samples = await errorSamples(api, as, profile, 4);
    const prefixes = new Set(samples.map((r) => String(r.body?.type).slice(0, -String(r.body?.code).length - 1)));
    expect([...prefixes], 'errors_url prefixes').toHaveLength(1);
    expect([...prefixes][0]).toMatch(/^https?:\/\/\S+$/);
  });

  test('query, JSON field and path field validation failures answer 400 validation_error', { tag: ['@ERR-006'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    expectProblem(await api.get('/meters', { query: { limit: 0 } }), 400, 'validation_error');
    expectProblem(await api.get('/work-orders', { query: { direction: 'sideways' } }), 400, 'validation_error');
    expectProblem(await api.get('/workrequests', { query: { limit: 'abc' } }), 400, 'validation_error');
    expectProblem(await api.post('/work-orders', { json: { title: 42 } }), 400, 'validation_error');
    expectProblem(await api.patch(`/work-orders/${wo.id}`, { json: { priority: ['high'] } }), 400, 'validation_error');
    expectProblem(await api.post(`/work-orders/${wo.id}/other-costs`, { json: { user_id: '', type: 'labor', amount_minor: 100 } }), 400, 'validation_error');
    expectProblem(await api.patch('/customfields/assets/0', { json: { field: { required: true } } }), 400, 'validation_error');
    expectProblem(await api.delete('/customfields/workOrders/not-an-id'), 400, 'validation_error');
  });

  test('a write whose body is not well-formed JSON answers 400 validation_error', { tag: ['@ERR-007'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    const json = { 'content-type': 'application/json' };
    const writes: Array<[string, string]> = [['POST', '/work-orders'], ['PATCH', `/work-orders/${wo.id}`], ['POST', `/work-orders/${wo.id}/other-costs`], ['POST', '/workorders'], ['POST', '/meters']];
    for (const [method, path] of writes) {
      for (const body of ['{"title": "x"', "{'title': 'x'}", 'not json', '[1, 2']) {
        expectProblem(await api.send(method, path, { body, headers: json }), 400, 'validation_error');
      }
    }
  });
});

test.describe('problem details (inferred)', () => {
  test('codes the description does not show: not_found, conflict, payload_too_large, unsupported_media_type', { tag: ['@ERR-008'] }, async ({ api, profile }) => {
    expectProblem(await api.get('/meters/ct_unknown_meter'), 404, 'not_found');
    expectProblem(await api.get('/work-orders/ct_unknown_work_order'), 404, 'not_found');
    const meter = await createMeter(api, profile);
    expect((await api.delete(`/meters/${meter.id}`)).status).toBe(204);
    const onArchived = await api.post(`/meters/${meter.id}/readings`, { json: { value: 1 } });
    if (onArchived.status !== 409) notAssessed(`a reading on an archived meter answered ${onArchived.status}, not 409 (inferred, READ-008)`);
    expectProblem(onArchived, 409, 'conflict');
    expectProblem(await api.post('/work-orders', { body: '{"title": "x"}', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
    const request = (await api.get('/workrequests', { query: { limit: 1 } })).body.workRequests[0];
    if (!request) notAssessed('the organization has no work request to upload to');
    const upload = await api.post(`/workrequests/${request.id}/attachments`, {
      query: { fileName: 'large.bin' }, body: Buffer.alloc(1024 * 1024 + 1, 7), headers: { 'content-type': 'application/octet-stream' },
    });
    expectProblem(upload, 413, 'payload_too_large');
  });

  test('a validation_error names each failing field in errors', { tag: ['@ERR-009'] }, async ({ api }) => {
    const query = await api.get('/meters', { query: { limit: 0, direction: 'up' } });
    expectProblem(query, 400, 'validation_error');
    expect(query.body.errors, 'query errors').toEqual(expect.arrayContaining([
      expect.objectContaining({ in: 'query', name: 'limit', message: expect.any(String) }),
      expect.objectContaining({ in: 'query', name: 'direction', message: expect.any(String) }),
    ]));
    const body = await api.post('/work-orders', { json: { title: 42, priority: ['high'] } });
    expectProblem(body, 400, 'validation_error');
    expect(body.body.errors, 'body errors').toEqual(expect.arrayContaining([
      expect.objectContaining({ in: 'body', pointer: '/title', message: expect.any(String) }),
      expect.objectContaining({ in: 'body', pointer: '/priority', message: expect.any(String) }),
    ]));
  });

  test('a JSON write sent with another Content-Type answers 415', { tag: ['@ERR-010'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    const body = JSON.stringify({ title: 'CT wrong media type' });
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      expectProblem(await api.post('/work-orders', { body, headers: { 'content-type': type } }), 415);
      expectProblem(await api.patch(`/work-orders/${wo.id}`, { body, headers: { 'content-type': type } }), 415);
    }
  });
});
