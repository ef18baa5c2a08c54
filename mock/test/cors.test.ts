/**
 * CORS on the API (pipeline/cors.ts): `*` and the Limits headers exposed on every /v1 answer, errors
 * included; preflights 204 before authentication; never on the control API; `cors: false` (--no-cors)
 * turns it off and a preflight is refused like any keyless request (401).
 */
import { test, expect } from '@playwright/test';
import { startMock, type RunningMock } from '../server.ts';
import { controlFetch, startTestMock, type TestMock } from './support.ts';

let mock: RunningMock;
let call: TestMock['call'];
test.beforeAll(async () => {
  ({ mock, call } = await startTestMock());
});
test.afterAll(async () => mock.stop());

const preflight = (url: string) =>
  fetch(url, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' }, signal: AbortSignal.timeout(5000) });

test('every API answer allows any origin and exposes X-Request-ID, X-RateLimit-* and Retry-After', async () => {
  for (const r of [await call('/v1/meters'), await call('/v1/meters', { headers: { authorization: 'Bearer nope' } }), await call('/v1/nothing')]) {
    expect(r.headers.get('access-control-allow-origin'), String(r.status)).toBe('*');
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
    const exposed = r.headers.get('access-control-expose-headers')!.split(/\s*,\s*/).map((h) => h.toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after']));
  }
});

test('a preflight is 204 without Authorization, with methods, headers and a max age', async () => {
  const r = await preflight(`${mock.url}/v1/meters`);
  expect(r.status).toBe(204);
  expect(r.headers.get('access-control-allow-origin')).toBe('*');
  expect(r.headers.get('access-control-allow-methods')).toContain('POST');
  const allowed = r.headers.get('access-control-allow-headers')!.toLowerCase();
  for (const h of ['authorization', 'content-type', 'prefer']) expect(allowed).toContain(h);
  expect(Number(r.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  expect(r.headers.get('x-request-id')).toBeTruthy();
  // A plain OPTIONS (no Access-Control-Request-Method) is no preflight: still 405 after authentication.
  expect((await call('/v1/meters', { method: 'OPTIONS' })).status).toBe(405);
});

test('the control API never gets CORS headers, not even on a preflight', async () => {
  const r = await controlFetch(mock, '/__mock/clock');
  expect(r.status).toBe(200);
  expect(r.headers.get('access-control-allow-origin')).toBeNull();
  const p = await preflight(`${mock.url}/__mock/reset`);
  expect(p.status).not.toBe(204);
  expect(p.headers.get('access-control-allow-origin')).toBeNull();
  expect((await controlFetch(mock, '/__mock/clock', { headers: { 'X-Mock-Control-Token': 'wrong-token-000000' } })).headers.get('access-control-allow-origin')).toBeNull();
});

test('cors: false (--no-cors) sends no CORS headers and refuses a preflight (401: it carries no key)', async () => {
  const off = await startMock({ port: 0, cors: false });
  try {
    const p = await preflight(`${off.url}/v1/meters`);
    expect(p.headers.get('access-control-allow-origin')).toBeNull();
    expect(p.status).toBe(401);
  } finally {
    await off.stop();
  }
});
