/**
 * The mock's pipeline over HTTP: problem details for every kind of bad input, never a 500 or a hang;
 * Prefer hooks through Prism; the control API; a busy port.
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

async function problem(r: Response, status: number, code?: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toBe('application/problem+json');
  const body = (await r.json()) as any;
  expect(body.request_id).toBe(r.headers.get('x-request-id'));
  expect(body.type).toBe(`https://errors.mms.invalid/v1/${body.code}`);
  if (code) expect(body.code).toBe(code);
  return body;
}

test('malformed JSON is a 400, not a hang', async () => {
  await problem(await call('/v1/meters', { method: 'POST', body: '{"name": ', headers: { 'content-type': 'application/json' } }), 400, 'validation_error');
});

test('a JSON write with another media type is 415; a body over 1 MiB is 413', async () => {
  await problem(await call('/v1/meters', { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' } }), 415);
  await problem(await call('/v1/meters', { method: 'POST', body: 'x'.repeat(1024 * 1024 + 1), headers: { 'content-type': 'application/json' } }), 413);
});

test('unknown routes are 404 and wrong methods 405, as problem details', async () => {
  await problem(await call('/v1/nothing-here'), 404);
  await problem(await call('/meters'), 404);
  const r = await call('/v1/meters', { method: 'PUT' });
  await problem(r, 405);
  expect(r.headers.get('allow')).toBe('GET, POST');
});

test('validation errors name each failing field', async () => {
  const body = await problem(await call('/v1/meters?limit=0&direction=up'), 400, 'validation_error');
  expect(body.errors.map((e: { name: string }) => e.name).sort()).toEqual(['direction', 'limit']);
});

test("Prefer: code= and example= are answered by Prism's mocker; an undocumented code is refused", async () => {
  await mock.prismLoaded; // loading Prism is not this test's subject (a loaded machine takes seconds)
  const r = await call('/v1/meters', { headers: { prefer: 'code=400' } });
  expect(r.status).toBe(400);
  expect(r.headers.get('x-request-id')).toBeTruthy();
  const ok = await call('/v1/work-orders/x/parts', { headers: { prefer: 'code=200' } });
  expect(ok.status).toBe(200);
  expect(((await ok.json()) as any).aggregateVersion).toMatch(/^[0-9a-f]{64}$/);
  await problem(await call('/v1/meters', { headers: { prefer: 'code=418' } }), 400, 'validation_error');
});

test('Prefer: code= of an error status answers the mock\'s problem details, Retry-After on 429, X-RateLimit-* on successes only', async () => {
  const limited = await call('/v1/meters', { headers: { prefer: 'code=429' } });
  const body = await problem(limited, 429, 'rate_limited');
  expect(body).toMatchObject({ title: 'Too Many Requests', status: 429 });
  expect(body.detail).toContain('Prefer');
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(limited.headers.get('x-ratelimit-limit')).toBeNull();
  const invalid = await problem(await call('/v1/meters', { headers: { prefer: 'code=400' } }), 400, 'validation_error');
  expect(invalid.errors).toEqual([{ in: 'header', name: 'Prefer', message: 'asks for code=400' }]);
  await problem(await call('/v1/meters', { headers: { prefer: 'code=401' } }), 401, 'missing_authorization');
  const server = await call('/v1/meters', { headers: { prefer: 'code=500' } });
  await problem(server, 500, 'internal_error');
  expect(server.headers.get('retry-after')).toBeNull();
  // example= picks one of the response's documented codes; another is refused naming Prefer.
  await problem(await call('/v1/meters/m_x', { method: 'DELETE', headers: { prefer: 'code=409, example=resource_in_use' } }), 409, 'resource_in_use');
  const refused = await problem(await call('/v1/meters/m_x', { method: 'DELETE', headers: { prefer: 'code=409, example=nope' } }), 400, 'validation_error');
  expect(refused.errors[0]).toMatchObject({ in: 'header', name: 'Prefer' });
  const ok = await call('/v1/meters', { headers: { prefer: 'code=200' } });
  expect(ok.status).toBe(200);
  expect(ok.headers.get('x-ratelimit-remaining')).not.toBeNull();
  expect(ok.headers.get('x-request-id')).toBeTruthy();
});

test('the control API advances the clock, toggles modules and injects faults', async () => {
  const clock = (await (await controlFetch(mock, `/__mock/clock`)).json()) as any;
  await controlFetch(mock, `/__mock/clock/advance`, { method: 'POST', body: JSON.stringify({ seconds: 30 }) });
  const after = (await (await controlFetch(mock, `/__mock/clock`)).json()) as any;
  expect(Date.parse(after.now) - Date.parse(clock.now)).toBeGreaterThanOrEqual(30_000);
  await controlFetch(mock, `/__mock/orgs/org_acme`, { method: 'PATCH', body: JSON.stringify({ modules: { meters: false } }) });
  await problem(await call('/v1/meters'), 403, 'module_disabled');
  await controlFetch(mock, `/__mock/orgs/org_acme`, { method: 'PATCH', body: JSON.stringify({ modules: { meters: true } }) });
  await controlFetch(mock, `/__mock/faults`, { method: 'PUT', body: JSON.stringify({ errorRate: 1, errorStatus: 503, pathPattern: '^/v1/assets' }) });
  expect((await call('/v1/assets')).status).toBe(503);
  expect((await call('/v1/meters')).status).toBe(200);
  await controlFetch(mock, `/__mock/faults`, { method: 'PUT', body: JSON.stringify({ dropHeaders: ['X-RateLimit-Remaining'], pathPattern: '^/v1/assets' }) });
  expect((await call('/v1/assets')).headers.get('x-ratelimit-remaining'), 'dropped where the pattern matches').toBeNull();
  expect((await call('/v1/meters')).headers.get('x-ratelimit-remaining'), 'kept elsewhere').not.toBeNull();
  await controlFetch(mock, `/__mock/faults`, { method: 'DELETE' });
  expect((await call('/v1/assets')).status).toBe(200);
  await problem(await controlFetch(mock, `/__mock/clock/advance`, { method: 'POST', body: '{"seconds": -1}' }), 400, 'validation_error');
});

test('a busy port is refused with EADDRINUSE', async () => {
  const port = Number(new URL(mock.url).port);
  await expect(startMock({ port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
});
