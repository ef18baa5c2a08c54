/**
 * Request ids (Limits › response headers: `X-Request-ID` on every response, including 204 and errors;
 * Errors: `request_id` equals the header; Resources › Native envelope: `meta.request_id`).
 */
import { test, expect } from '../kits/work-orders.ts';
import type { ApiResponse } from '../lib/client.ts';

const idOf = (r: ApiResponse) => r.headers['x-request-id'];

function expectRequestId(r: ApiResponse): void {
  expect(idOf(r), `${r.status} to ${r.exchange.method} ${r.exchange.path} carries X-Request-ID`).toMatch(/\S/);
}

test.describe('request ids', () => {
  test('successful responses carry X-Request-ID, 201 and 204 included', { tag: ['@REQID-001'] }, async ({ api, profile, workOrders }) => {
    const created = await api.post('/work-orders', { json: { title: 'CT request id', priority: 'medium', ...profile.bodies.createWorkOrder } });
    expect(created.status).toBe(201);
    expectRequestId(created);
    const read = await api.get(`/work-orders/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expectRequestId(read);
    expectRequestId(await api.get('/work-orders', { query: { limit: 1 } }));
    const wo = await workOrders.create();
    const deleted = await api.delete(`/work-orders/${wo.id}`);
    expect(deleted.status).toBe(204);
    expectRequestId(deleted);
  });

  test('error responses carry X-Request-ID: 400, 401, 403, 404 and unknown routes', { tag: ['@REQID-002'] }, async ({ api, as, profile }) => {
    const errors = [
      await api.get('/meters', { query: { limit: 0 } }),
      await as.anonymous().get('/meters'),
      await as.header('Bearer sk_live_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp').get('/work-orders'),
      ...(profile.keys.noScopes ? [await as.key(profile.keys.noScopes).get('/work-orders')] : []),
      await api.get('/work-orders/ct_unknown_work_order'),
      await api.get('/no-such-route'),
      await api.post('/nothing/here', { json: {} }),
    ];
    for (const r of errors) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      expectRequestId(r);
    }
  });

  // A 429's X-Request-ID (REQID-002) is proved by the universal check requestIdOnError
  // (checks/request-id.ts) on the real 429 the serial rate-limit test gets
  // (serial/1-rate-limits.spec.ts): spending a key of its own here cost 101 requests for the same proof.

  test('problem details carry the X-Request-ID as request_id', { tag: ['@REQID-003'] }, async ({ api, as }) => {
    for (const r of [await as.anonymous().get('/work-orders'), await api.get('/meters/ct_unknown_meter'), await api.post('/work-orders', { json: { title: 42 } })]) {
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.body.request_id, `${r.status}: request_id`).toBe(idOf(r));
    }
  });

  test('no two responses share an id, even concurrent ones', { tag: ['@REQID-004'] }, async ({ api, as }) => {
    const concurrent = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? api.get('/work-orders', { query: { limit: 1 } }) : as.anonymous().get('/meters'))));
    const sequential = [await api.get('/meters', { query: { limit: 1 } }), await api.get('/meters', { query: { limit: 1 } }), await as.anonymous().get('/meters')];
    const ids = [...concurrent, ...sequential].map(idOf);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size, 'distinct ids').toBe(ids.length);
  });
});

test.describe('request ids (inferred)', () => {
  test('meta.request_id equals the X-Request-ID header on native responses', { tag: ['@REQID-005'] }, async ({ api, workOrders }) => {
    const wo = await workOrders.create();
    for (const r of [await api.get(`/work-orders/${wo.id}`), await api.get('/work-orders', { query: { limit: 2 } }), await api.get('/meters', { query: { limit: 2 } }), await api.get('/assets', { query: { limit: 2 } })]) {
      expect(r.status).toBe(200);
      expect(r.body.meta.request_id, `${r.exchange.path}: meta.request_id`).toBe(idOf(r));
    }
  });
});
