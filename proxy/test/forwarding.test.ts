/**
 * Byte-exact forwarding of hostile requests: each reaches an echo upstream exactly as it reaches it
 * directly (method, request-target, headers in order and case, body bytes), and the mock answers it
 * through the proxy exactly as directly (status, Content-Type, body — request ids masked). Covers the
 * cases that broke the Prism-based proxy: a malformed percent-encoding, malformed JSON, a binary
 * thumbnail, `limit=0x10`; and chunked, empty and 1 MiB+ bodies, repeated headers, an unreachable upstream.
 */
import { test, expect } from '@playwright/test';
import { startProxy } from '../start.ts';
import { masked, sendRaw, sha256, startEcho, startProxiedMock, type Echo, type ProxiedMock } from './support.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

interface RawRequest { method: string; target: string; headers: Array<[string, string]>; body?: Buffer; chunked?: boolean }

/** The bytes of a request; `key` fills `<key>`, the Host names `hostPort`. */
function bytes(r: RawRequest, hostPort: string, key: string): Buffer {
  const lines = [`${r.method} ${r.target} HTTP/1.1`, `Host: ${hostPort}`, ...r.headers.map(([n, v]) => `${n}: ${v.replace('<key>', key)}`)];
  let body = r.body ?? Buffer.alloc(0);
  if (r.chunked) {
    lines.push('Transfer-Encoding: chunked');
    const half = Math.floor(body.length / 2);
    const chunk = (b: Buffer) => (b.length ? [Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')] : []);
    body = Buffer.concat([...chunk(body.subarray(0, half)), ...chunk(body.subarray(half)), Buffer.from('0\r\n\r\n')]);
  } else if (r.body) lines.push(`Content-Length: ${r.body.length}`);
  lines.push('Connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), body]);
}

const auth: [string, string] = ['Authorization', 'Bearer <key>'];
const CASES: Array<[string, (wr: string) => RawRequest]> = [
  ['a malformed percent-encoding in the path', () => ({ method: 'GET', target: '/v1/meters/%', headers: [auth] })],
  ['a malformed percent-encoding in the query', () => ({ method: 'GET', target: '/v1/meters?cursor=%E0%A4%A&limit=%', headers: [auth] })],
  ['limit=0x10', () => ({ method: 'GET', target: '/v1/meters?limit=0x10', headers: [auth] })],
  ['limit=1e1', () => ({ method: 'GET', target: '/v1/meters?limit=1e1', headers: [auth] })],
  ['malformed JSON under application/json', () => ({ method: 'POST', target: '/v1/meters', headers: [auth, ['Content-Type', 'application/json']], body: Buffer.from('{"name": ') })],
  ['a JSON write sent as text/plain', () => ({ method: 'POST', target: '/v1/meters', headers: [auth, ['Content-Type', 'text/plain']], body: Buffer.from('{"name":"x"}') })],
  ['a binary PNG thumbnail', (wr) => ({ method: 'PUT', target: `/v1/workrequests/${wr}/thumbnail?fileName=thumb.png`, headers: [auth, ['Content-Type', 'image/png']], body: PNG })],
  ['a chunked JSON body', () => ({ method: 'POST', target: '/v1/meters', headers: [auth, ['Content-Type', 'application/json']], body: Buffer.from('{"name":"Pressure","unit":"psi"}'), chunked: true })],
  ['an empty body', () => ({ method: 'POST', target: '/v1/meters', headers: [auth, ['Content-Type', 'application/json']], body: Buffer.alloc(0) })],
  ['a body over 1 MiB', () => ({ method: 'POST', target: '/v1/meters', headers: [auth, ['Content-Type', 'application/json']], body: Buffer.alloc(1024 * 1024 + 512, 0x61) })],
  ['binary bytes under application/json', () => ({ method: 'PATCH', target: '/v1/meters/x', headers: [auth, ['Content-Type', 'application/json']], body: Buffer.from([0, 255, 1, 254, 0x7b, 0x22]) })],
  ['repeated and odd-case headers', () => ({ method: 'GET', target: '/v1/meters?limit=2&limit=3', headers: [['aUtHoRiZaTiOn', 'Bearer <key>'], ['X-Dup', 'a'], ['x-dup', 'b'], ['Accept', 'application/xml']] })],
  ['a path outside the API', () => ({ method: 'DELETE', target: '/v2/../v1/%zz', headers: [auth] })],
];

let pair: ProxiedMock;
let workRequest: string;
test.beforeAll(async () => {
  pair = await startProxiedMock();
  workRequest = ((await (await pair.call('/v1/workrequests?limit=1')).json()) as { workRequests: Array<{ id: string }> }).workRequests[0]!.id;
});
test.afterAll(async () => pair.stop());

/** The received request without the hop-by-hop Connection (the proxy keeps its upstream connection alive). */
const endToEnd = (e: Echo) => ({ ...e, rawHeaders: e.rawHeaders.filter((_, i, all) => all[i - (i % 2)]!.toLowerCase() !== 'connection') });

for (const [name, make] of CASES) {
  test(`${name}: reaches the upstream unchanged and comes back unchanged`, async () => {
    const echo = await startEcho();
    const echoProxy = await startProxy({ upstream: `${echo.url}/v1`, port: 0 });
    try {
      const r = make(workRequest);
      const direct = await sendRaw(Number(new URL(echo.url).port), bytes(r, 'api.example', pair.key));
      const proxied = await sendRaw(echoProxy.port, bytes(r, 'api.example', pair.key));
      const seenDirect = JSON.parse(direct.body.toString()) as Echo;
      const seenProxied = JSON.parse(proxied.body.toString()) as Echo;
      expect(endToEnd(seenProxied)).toEqual(endToEnd(seenDirect));
      expect(seenProxied.bodyLength).toBe(r.body?.length ?? 0);
      if (r.body) expect(seenProxied.bodySha256).toBe(sha256(r.body));
    } finally {
      await echoProxy.stop();
      await echo.stop();
    }
    const r = make(workRequest);
    const host = new URL(pair.mock.url).host;
    const direct = await sendRaw(Number(new URL(pair.mock.url).port), bytes(r, host, pair.key));
    const proxied = await sendRaw(pair.proxy.port, bytes(r, host, pair.key));
    expect(proxied.status).toBe(direct.status);
    expect(proxied.headers['content-type']).toBe(direct.headers['content-type']);
    expect(masked(proxied.body)).toBe(masked(direct.body));
  });
}

test('the thumbnail is accepted through the proxy as directly (200, not 415)', async () => {
  const host = new URL(pair.mock.url).host;
  const answer = await sendRaw(pair.proxy.port, bytes(CASES.find(([n]) => n.includes('PNG'))![1](workRequest), host, pair.key));
  expect(answer.status).toBe(200);
});

test('request-side validation: limit=0x10 is reported as no integer, the 400 passes untouched', async () => {
  const before = pair.proxy.ledger.summary().requestFindings.find((g) => g.location === 'query:limit' && g.operation === 'listMeters')?.exchanges ?? 0;
  const answer = await pair.viaProxy('/v1/meters?limit=0x10');
  expect(answer.status).toBe(400);
  await answer.text();
  await pair.proxy.settled();
  const group = pair.proxy.ledger.summary().requestFindings.find((g) => g.location === 'query:limit' && g.operation === 'listMeters');
  expect(group?.exchanges).toBeGreaterThan(before);
  expect(group?.requirement).toBe('ERR-006');
});

test('an unreachable upstream: 502 problem details, the only answer the proxy makes', async () => {
  const echo = await startEcho();
  const port = new URL(echo.url).port;
  await echo.stop();
  const proxy = await startProxy({ upstream: `http://127.0.0.1:${port}/v1`, port: 0 });
  try {
    const answer = await fetch(`${proxy.url}/v1/meters`, { signal: AbortSignal.timeout(5000) });
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await answer.json()) as Record<string, unknown>;
    expect(problem).toMatchObject({ status: 502, code: 'upstream_unreachable', request_id: answer.headers.get('x-request-id') });
    expect(typeof problem.type).toBe('string');
  } finally {
    await proxy.stop();
  }
});
