/**
 * Screenshots the inspector page (docs/integrators.md, "The inspector page") for the docs: an
 * in-process mock with the journal on, a few requests of a client (a list, a bad query, a command
 * answered 409, an unknown key), one exchange opened; saved by headless Chromium (tools/lib/browser.ts).
 *   tsx tools/screenshot-inspector.ts [docs/inspector.png] [width] [height]
 */
import { startMock } from '../mock/server.ts';
import { launchChromium } from './lib/browser.ts';

const [output = 'docs/inspector.png', width = '1400', height = '860'] = process.argv.slice(2);
const mock = await startMock({ port: 0, journal: { enabled: true }, preloadPrism: false });
const key = (mock.profile.keys as { live: string[] }).live[0]!;
const call = (path: string, init: RequestInit = {}) => fetch(`${mock.baseUrl}${path}`, { ...init, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers } }).then((r) => r.json() as Promise<any>);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
  await page.goto(`${mock.url}/__mock/inspector/`);
  await page.fill('#token', mock.controlToken!);
  await page.click('#login button');
  await page.locator('#status', { hasText: 'connected, live' }).waitFor();
  const first = await call('/meters?limit=2');
  await call(`/meters?limit=2&cursor=${encodeURIComponent(first.meta.pagination.cursor)}`);
  await call('/meters?limit=abc');
  const wo = (await call('/work-orders?limit=1&status=open')).data[0].id;
  const parts = await call(`/work-orders/${wo}/parts`);
  await call(`/work-orders/${wo}/parts`, { method: 'POST', body: JSON.stringify({ operation: 'transition', targetStatus: parts.partStatus, idempotencyKey: 'cmd-1', expectedAggregateVersion: parts.aggregateVersion }) });
  await fetch(`${mock.baseUrl}/assets`, { headers: { Authorization: 'Bearer sk_live_000000000000000000000000000unknown' } });
  await page.locator('#entries tbody tr').nth(6).waitFor();
  await page.locator('#entries tbody tr', { hasText: 'limit=abc' }).click();
  await page.screenshot({ path: output });
  process.stdout.write(`wrote ${output}\n`);
} finally {
  await browser.close();
  await mock.stop();
}
