/**
 * The usual success of an API request is written at once (http/send.ts `writeApiSuccess`) when no
 * onSend hook is registered; with a hook it goes the general way (`success`, CORS, the hooks, `write`).
 * Both must send the same bytes: the status line, every header name in its case and order, every value
 * but the per-request ones (X-Request-ID, X-RateLimit-Remaining, Date), and the body but its request id.
 */
import { request } from 'node:http';
import { test, expect } from '@playwright/test';
import { startTestMock, type TestMock } from './support.ts';

let t: TestMock;
test.beforeAll(async () => {
  t = await startTestMock();
});
test.afterAll(() => t.mock.stop());

interface RawAnswer {
  status: number;
  rawHeaders: string[];
  body: string;
}

/** GET `path` with the test key, read with node:http's client: header names as sent, in their order. */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    const req = request(`${t.mock.url}${path}`, { headers: { authorization: `Bearer ${t.key}`, ...headers }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

/** The answer with its per-request parts blanked. */
function comparable(answer: RawAnswer, requestId: string): RawAnswer {
  const rawHeaders = answer.rawHeaders.map((value, i) => (i % 2 === 1 && ['x-request-id', 'x-ratelimit-remaining', 'date'].includes(answer.rawHeaders[i - 1]!.toLowerCase()) ? '*' : value));
  // A list page's cursor may be issued anew from one request to the next (a new second): blanked too.
  return { status: answer.status, rawHeaders, body: answer.body.replaceAll(requestId, '*').replace(/"cursor":"[^"]*"/, '"cursor":"*"') };
}

function requestIdOf(answer: RawAnswer): string {
  const i = answer.rawHeaders.findIndex((name, n) => n % 2 === 0 && name === 'X-Request-ID');
  expect(i, 'X-Request-ID sent').toBeGreaterThanOrEqual(0);
  return answer.rawHeaders[i + 1]!;
}

for (const [what, path] of [
  ['a meter', '/v1/meters/{meter}'],
  ['a work order', '/v1/work-orders/{workOrder}'],
  ['a non-ASCII body', '/v1/meters/{meter}'],
  ['a list page', '/v1/work-orders?limit=5'],
  ['a list page with a non-ASCII record', '/v1/meters?limit=100'],
] as const) {
  test(`${what}: the direct write sends the general way's bytes`, async () => {
    const list = (await (await t.call(`/v1/${path.includes('meter') ? 'meters' : 'work-orders'}?limit=1`)).json()) as { data: Array<{ id: string }> };
    const id = list.data[0]!.id;
    const url = path.replace(/\{\w+\}/, id);
    if (what.includes('non-ASCII')) {
      const r = await t.call(`/v1/meters/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Zähler – Ölstand ✓' }) });
      expect(r.status).toBe(200);
    }
    const direct = await rawGet(url);
    expect(direct.status).toBe(200);
    t.mock.app.extend('probe', { onSend: [(out) => out] });
    try {
      const general = await rawGet(url);
      expect(comparable(direct, requestIdOf(direct))).toEqual(comparable(general, requestIdOf(general)));
      expect(Number(direct.rawHeaders[direct.rawHeaders.indexOf('Content-Length') + 1])).toBe(Buffer.byteLength(direct.body));
    } finally {
      t.mock.app.extend('probe', {});
    }
  });
}
