/**
 * `proxy --har` (docs/integrators.md, "A verdict on your client"): the proxy keeps the exchanges it
 * relayed as HAR 1.2 with the keys masked, and `client-report` judges a client by them as it would by
 * the mock's journal — here a client that calls again at once after a 429 fails CLIENT-003.
 */
import { test, expect } from '@playwright/test';
import { buildClientReport } from '../../contract/client/report.ts';
import { exchangesOf } from '../../contract/client/traffic.ts';
import { startTestMock } from '../../mock/test/support.ts';
import { startProxy } from '../start.ts';

test('the HAR of a proxy in front of any service feeds client-report; no key in full', async () => {
  const { mock, key } = await startTestMock({});
  const proxy = await startProxy({ upstream: mock.baseUrl, port: 0, har: true });
  try {
    const call = (path: string) => fetch(`${proxy.url}${path}`, { headers: { authorization: `Bearer ${key}` } }).then(async (r) => (await r.arrayBuffer(), r.status));
    const control = (method: string, body?: unknown) => fetch(`${mock.url}/__mock/faults`, { method, headers: { 'X-Mock-Control-Token': mock.controlToken!, ...(body !== undefined && { 'Content-Type': 'application/json' }) }, ...(body !== undefined && { body: JSON.stringify(body) }) });
    expect(await call('/v1/meters?limit=2')).toBe(200);
    await control('PUT', { rateLimitRate: 1, pathPattern: '^/v1/assets' });
    expect(await call('/v1/assets')).toBe(429);
    await control('DELETE');
    expect(await call('/v1/assets')).toBe(200);
    await proxy.settled();
    const har = proxy.har() as { log: { entries: Array<{ request: { url: string } }> } };
    expect(har.log.entries.map((e) => new URL(e.request.url).pathname)).toEqual(['/v1/meters', '/v1/assets', '/v1/assets']);
    expect(JSON.stringify(har)).not.toContain(key);
    const report = buildClientReport(exchangesOf(har).exchanges, { kind: 'har', from: 'proxy' });
    expect(report.requirements.filter((r) => r.verdict === 'failed').map((r) => r.id)).toEqual(['CLIENT-003']);
    expect(report.requirements.find((r) => r.id === 'CLIENT-003')!.findings[0]!.evidence).toEqual([2, 3]);
  } finally {
    await proxy.stop();
    await mock.stop();
  }
});
