/**
 * Request ids (Limits › response headers: `X-Request-ID` on every response, including 204 and errors;
 * Errors: `request_id` equals the header; Resources › Native envelope: `meta.request_id`).
 */
import { test, expect } from '../fixtures.ts';
import { expectSucceeded } from '../lib/expect-success.ts';
import { crossCuttingErrors, listSamples, missingAuthorization, named, operationErrors, workOrderSamples } from '../lib/sample-sets.ts';
import type { ApiResponse } from '../lib/client.ts';
import { notAssessed } from '../lib/needs.ts';
import { problemOf } from '../lib/expect-problem.ts';
import type { DataPage, WorkOrderEnvelope } from '../lib/api-types.ts';

const idOf = (r: ApiResponse) => r.headers['x-request-id'];

function expectRequestId(r: ApiResponse): void {
  expect(idOf(r) ?? '', `${r.status} to ${r.exchange.method} ${r.exchange.path} carries X-Request-ID`).toMatch(/\S/);
}

/**
 * The responses that carry `X-Request-ID`: what REQID-003, REQID-004 and REQID-005 compare with it. Where
 * none does, they cannot be judged (not assessed); its absence fails REQID-001 and REQID-002 alone.
 */
function carryingIds<T>(responses: ApiResponse<T>[], least = 1): ApiResponse<T>[] {
  const carrying = responses.filter((r) => (idOf(r) ?? '').trim() !== '');
  if (carrying.length < least) notAssessed('no response carries X-Request-ID to compare with (REQID-001, REQID-002 judge its absence)');
  return carrying;
}

// Every test here judges shared samples (suites/lib/sample-sets.ts): responses an earlier test of the
// worker made are borrowed, not sent again; each test asserts the statuses it needs of them.
test.describe('request ids', () => {
  test('successful responses carry X-Request-ID, 201 and 204 included', { tag: ['@REQID-001'] }, async ({ api, as, profile }) => {
    const workOrder = named(await workOrderSamples({ api, as, profile }), ['created', 'read', 'deleted']);
    const successes = [...workOrder, ...named(await listSamples({ api, as, profile }), ['workOrders'])];
    // The samples are successes (which success each gets is SPEC-007's): what this test judges is their headers.
    for (const r of successes) expectSucceeded(r);
    for (const r of successes) expectRequestId(r);
  });

  test('error responses carry X-Request-ID: 400, 401, 403, 404 and unknown routes', { tag: ['@REQID-002'] }, async ({ api, as, profile }) => {
    const errors = [
      // GET /meters?limit=0 (400), GET /work-orders/{unknown id} (404)
      ...(await operationErrors({ api, as, profile }, ['listMeters', 'getWorkOrder'])),
      ...(await crossCuttingErrors({ api, as, profile }, ['missing authorization', 'unknown key', 'no scopes', 'unknown route', 'unknown route, POST'])),
    ];
    for (const r of errors) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      expectRequestId(r);
    }
  });

  // A 429's X-Request-ID (REQID-002) is proved by the universal check requestIdOnError
  // (checks/request-id.ts) on the real 429 the serial rate-limit test gets
  // (serial/1-rate-limits.spec.ts): spending a key of its own here cost 101 requests for the same proof.

  test('problem details carry the X-Request-ID as request_id', { tag: ['@REQID-003'] }, async ({ api, as, profile }) => {
    // 401 without credentials, 404 of GET /meters/{unknown id}, 400 of POST /work-orders with an array body.
    const errors = [await missingAuthorization({ api, as, profile }), ...(await operationErrors({ api, as, profile }, ['getMeter', 'createWorkOrder']))];
    for (const r of errors) expect(r.status).toBeGreaterThanOrEqual(400);
    for (const r of carryingIds(errors)) expect(problemOf(r)?.request_id, `${r.status}: request_id`).toBe(idOf(r));
  });

  test('no two responses share an id, even concurrent ones', { tag: ['@REQID-004'] }, async ({ api, as }) => {
    const concurrent = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? api.get('/work-orders', { query: { limit: 1 } }) : as.anonymous().get('/meters'))));
    const sequential = [await api.get('/meters', { query: { limit: 1 } }), await api.get('/meters', { query: { limit: 1 } }), await as.anonymous().get('/meters')];
    const ids = carryingIds([...concurrent, ...sequential], 2).map(idOf);
    expect(new Set(ids).size, 'distinct ids').toBe(ids.length);
  });
});

test.describe('request ids (inferred)', () => {
  test('meta.request_id equals the X-Request-ID header on native responses', { tag: ['@REQID-005'] }, async ({ api, as, profile }) => {
    const natives: ApiResponse<WorkOrderEnvelope | DataPage>[] = [...named<WorkOrderEnvelope>(await workOrderSamples({ api, as, profile }), ['read']), ...named<DataPage>(await listSamples({ api, as, profile }), ['workOrders', 'meters', 'assets'])];
    for (const r of natives) expect(r.status).toBe(200);
    for (const r of carryingIds(natives)) expect(r.body.meta.request_id, `${r.exchange.path}: meta.request_id`).toBe(idOf(r));
  });
});
