/**
 * The control API's guard and input checks (docs/integrators.md, "The control API"): the token, a loopback
 * Host, JSON bodies; bounded, known inputs; a failed reset changes nothing; never a 5xx.
 */
import { test, expect } from '@playwright/test';
import { request } from 'node:http';
import { startMock, type RunningMock } from '../server.ts';
import { controlFetch } from './support.ts';

let mock: RunningMock;
test.beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
test.afterAll(() => mock.stop());

/** A raw request (any Host header), answered status and body. */
function raw(path: string, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(`${mock.url}${path}`, { method, headers, setHost: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString())).on('end', () => done({ status: res.statusCode!, body: text }));
    });
    req.on('error', fail).end(body);
  });
}

async function problem(r: Response, status: number, code: string): Promise<Record<string, unknown>> {
  expect(r.status).toBe(status);
  const body = (await r.json()) as Record<string, unknown>;
  expect(body.code).toBe(code);
  return body;
}

test('without the token every control path is 401 problem details, the profile (every key) included', async () => {
  for (const path of ['/__mock/profile', '/__mock/health', '/__mock/reset', '/__mock/x']) {
    await problem(await fetch(`${mock.url}${path}`, { method: path === '/__mock/reset' ? 'POST' : 'GET' }), 401, 'invalid_control_token');
  }
  await problem(await controlFetch({ url: mock.url, controlToken: 'wrong' }, '/__mock/profile'), 401, 'invalid_control_token');
  const profile = (await (await controlFetch(mock, '/__mock/profile')).json()) as { control: { token: string } };
  expect(profile.control.token).toBe(mock.controlToken);
});

test('a blind cross-site text/plain body is 415; a foreign Host (DNS rebinding) is 403, token or not', async () => {
  const r = await fetch(`${mock.url}/__mock/clock/advance`, { method: 'POST', headers: { 'x-mock-control-token': mock.controlToken!, 'content-type': 'text/plain' }, body: '{"seconds":60}' });
  await problem(r, 415, 'unsupported_media_type');
  const minted = await raw('/__mock/keys', 'POST', { host: 'attacker.example', 'x-mock-control-token': mock.controlToken!, 'content-type': 'application/json' }, '{"orgId":"org_acme"}');
  expect(minted.status).toBe(403);
  expect(minted.body).not.toContain('sk_live_');
  for (const host of ['127.0.0.1', `localhost:${new URL(mock.url).port}`, '[::1]:4010']) {
    expect((await raw('/__mock/health', 'GET', { host, 'x-mock-control-token': mock.controlToken! })).status, host).toBe(200);
  }
});

test('a non-loopback bind needs a token and then accepts any Host, never a missing token', async () => {
  await expect(startMock({ port: 0, host: '0.0.0.0' })).rejects.toMatchObject({ code: 'ECONTROLTOKEN' });
  const open = await startMock({ port: 0, host: '0.0.0.0', controlToken: 'a-token-given-by-hand-0123' });
  try {
    const port = new URL(open.url).port;
    const ask = (headers: Record<string, string>) => new Promise<number>((done, fail) => {
      request({ host: '127.0.0.1', port, path: '/__mock/health', headers: { host: 'mock.lan', ...headers } }, (res) => done(res.resume() && res.statusCode!)).on('error', fail).end();
    });
    expect(await ask({ 'x-mock-control-token': 'a-token-given-by-hand-0123' })).toBe(200);
    expect(await ask({})).toBe(401);
  } finally {
    await open.stop();
  }
});

test('control input is validated: bounded numbers, known fields, good encoding, capped bulk; never a 5xx', async () => {
  const send = (path: string, method: string, body?: string) => controlFetch(mock, path, { method, body });
  await problem(await send('/__mock/clock/advance', 'POST', '{"seconds":1e400}'), 400, 'validation_error');
  const health = await send('/__mock/health', 'GET');
  expect(health.status, 'the clock is still finite').toBe(200);
  await problem(await send('/__mock/orgs/%E0%A4%A', 'PATCH', '{}'), 400, 'validation_error');
  const bogus = await problem(await send('/__mock/faults', 'PUT', '{"bogus":1}'), 400, 'validation_error');
  expect(JSON.stringify(bogus)).toContain('bogus');
  expect(await (await send('/__mock/faults', 'GET')).json()).toEqual({});
  await problem(await send('/__mock/bulk/work-orders', 'POST', '{"count":1000000}'), 400, 'validation_error');
  await problem(await send('/__mock/keys', 'POST', '{"orgId":"org_acme","extra":true}'), 400, 'validation_error');
  await problem(await send('/__mock/orgs/org_acme', 'PATCH', '{"settings":{"currency":"EUR","nope":1}}'), 400, 'validation_error');
  const org = (await (await send('/__mock/orgs', 'GET')).json()) as Array<{ id: string; settings: { currency: string } }>;
  expect(org.find((o) => o.id === 'org_acme')!.settings.currency, 'a refused PATCH changes nothing').toBe('USD');
  const unknown = await problem(await send('/__mock/x', 'GET'), 404, 'not_found');
  expect(String(unknown.detail)).toContain('control API');
});

test('a failed reset leaves the previous world, and later resets work', async () => {
  const before = mock.app.world;
  await problem(await controlFetch(mock, '/__mock/reset', { method: 'POST', body: '{"organizations":[{"id":"x"}]}' }), 400, 'validation_error');
  expect(mock.app.world, 'the world is unchanged').toBe(before);
  expect((await controlFetch(mock, '/__mock/reset', { method: 'POST', body: '{}' })).status).toBe(200);
  expect((await controlFetch(mock, '/__mock/reset', { method: 'POST', body: '{"seed":2}' })).status).toBe(200);
});
