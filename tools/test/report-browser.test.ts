/**
 * The HTML report in a real browser (docs/vendors.md, "Reading a report": conformance.html): Debian's Chromium renders reports/conformance.html
 * from a run with a failure; a reader sees the verdict, the failing requirement and its evidence, and
 * the filters work. A screenshot is attached to the test.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { loadCatalog } from '../../contract/catalog.ts';
import { buildReport } from '../../suites/reporter/verdicts.ts';
import { renderHtml } from '../../contract/report/html.ts';
import type { TestOutcome } from '../../contract/report/model.ts';
import { launchChromium } from '../lib/browser.ts';

let browser: Browser;
test.beforeAll(async () => {
  browser = await launchChromium();
});
test.afterAll(async () => browser.close());

type Kept = NonNullable<TestOutcome['evidence']>['exchanges'][number];
const exchange = (method: string, path: string, status: number, responseHeaders: Record<string, string> = {}): Kept => ({
  method, url: `http://target/v1${path}`, path, requestHeaders: { authorization: 'Bearer sk_live_****4437' }, credential: 'MMS_KEY_LIVE', status, responseHeaders, responseBody: '', durationMs: 4, authenticated: true, retries: [],
});
/** A test whose one response lacked X-Request-ID: deviation one, seen on several operations and statuses. */
const idless = (operationId: string, method: string, path: string, status: number): TestOutcome['evidence'] => ({
  requests: 1, exchanges: [exchange(method, path, status)],
  checkFailures: [{ check: status < 400 ? 'requestIdOnSuccess' : 'requestIdOnError', requirement: status < 400 ? 'REQID-001' : 'REQID-002', message: `${status} response to ${method} ${path} has no X-Request-ID`, operationId, status, at: 'x-request-id', rule: 'header x-request-id absent', exchange: 0 }],
});
const EVIDENCE: Record<string, TestOutcome['evidence']> = {
  'METER-004': idless('listMeters', 'GET', '/meters', 200),
  'WO-003': idless('getWorkOrder', 'GET', '/work-orders/wo_1', 200),
  'AUTH-001': idless(undefined as never, 'GET', '/meters', 401),
  // Deviation two: the archive of a meter an automation uses answers 204; the create before it arranged the test.
  'METER-011': { requests: 2, exchanges: [exchange('POST', '/meters', 201), exchange('DELETE', '/meters/mtr_1', 204, { 'x-request-id': 'req_42' })], checkFailures: [], failedExchange: 1 },
  // An inferred operation's body off its inferred schema: an inferred root cause.
  'ASSET-001': { requests: 1, exchanges: [exchange('GET', '/assets/as_1', 200)], checkFailures: [{ check: 'schemaValid', requirement: 'SPEC-005', message: 'getAsset 200 body: /data/status must be equal to one of the allowed values', operationId: 'getAsset', status: 200, at: '/data/status', exchange: 0 }] },
};

/** A run with two deviations (X-Request-ID absent everywhere; METER-011 broken) and an inferred finding. */
function reportFile(): string {
  const catalog = loadCatalog();
  const outcomes: TestOutcome[] = catalog.requirements.filter((r) => r.testable).map((r) => ({
    id: r.id, title: `proves ${r.id}`, file: 'suites/conformance/meters.spec.ts', line: 7, project: 'conformance', tags: [`@${r.id}`], durationMs: 12,
    status: r.id === 'METER-011' ? 'failed' : r.id === 'AUTH-008' ? 'skipped' : 'passed',
    errors: r.id === 'METER-011' ? ['DELETE /meters/mtr_1: expected 409 resource_in_use, got 204'] : [],
    ...(r.id === 'AUTH-008' ? { skipReason: 'not assessed: the target profile has no keys.revoked' } : {}),
    ...(EVIDENCE[r.id] ? { evidence: EVIDENCE[r.id] } : {}),
  }));
  const report = buildReport(outcomes, { catalog, tool: { name: 'kit', version: '0.1.0' }, target: { name: 'Vendor staging', baseUrl: 'http://target/v1', embedded: false }, spec: { title: 'Maintenance Management Service API', version: '1.0' }, startedAt: new Date(), finishedAt: new Date(), shard: null });
  const file = join(mkdtempSync(join(tmpdir(), 'report-')), 'conformance.html');
  writeFileSync(file, renderHtml(report));
  return file;
}

/** The WCAG contrast ratio of an element's text colour on its background (both rgb(...)). */
function contrast(color: string, background: string): number {
  const luminance = (css: string) => {
    const [r, g, b] = css.match(/[\d.]+/g)!.slice(0, 3).map(Number).map((v) => v / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [hi, lo] = [luminance(color), luminance(background)].sort((a, b) => b - a);
  return (hi! + 0.05) / (lo! + 0.05);
}

test('the first screen shows both root causes of a run with two deviations and the failed must list; inferred ones are folded', async ({}, testInfo) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(pathToFileURL(reportFile()).href);
  const causes = page.locator('ol.causes > li');
  const must = page.locator('#root-causes + ol.causes > li');
  await expect(must, 'one root cause per deviation: X-Request-ID absent on three operations is one').toHaveCount(2);
  for (const cause of await must.all()) await expect(cause, 'each must root cause is on the first screen').toBeInViewport();
  await expect(must.first()).toContainText('header x-request-id absent');
  await expect(must.first()).toContainText('REQID-001');
  await expect(must.first()).toContainText('REQID-002');
  await expect(must.nth(1)).toContainText('METER-011');
  const failed = page.locator('.failing-list li');
  await expect(failed).toHaveCount(3);
  for (const item of await failed.all()) await expect(item, 'each failed must requirement is on the first screen').toBeInViewport();
  const inferred = page.locator('details.inferred-causes');
  await expect(inferred).toHaveCount(1);
  await expect(inferred).not.toHaveAttribute('open', '');
  await expect(inferred.locator('li'), 'inferred root causes are folded').toBeHidden();
  await expect(causes).toHaveCount(3);
  await inferred.locator('> summary').click();
  const badge = inferred.locator('.badge').first();
  await expect(badge).toHaveText('inferred');
  const [color, background] = await badge.evaluate((e) => { const style = (globalThis as unknown as { getComputedStyle(e: unknown): { color: string; backgroundColor: string } }).getComputedStyle(e); return [style.color, style.backgroundColor]; });
  expect(contrast(color!, background!), 'the inferred badge is readable (WCAG AA, 4.5:1)').toBeGreaterThanOrEqual(4.5);
  await testInfo.attach('first-screen.png', { body: await page.screenshot({ fullPage: false }), contentType: 'image/png' });
  // The evidence of a failed assertion is the exchange it read; what arranged the test is one click away.
  const failing = page.locator('details.req[data-verdict=failed]', { hasText: 'METER-011' });
  await expect(failing.getByText('DELETE http://target/v1/meters/mtr_1')).toBeVisible();
  await expect(failing.getByText('POST http://target/v1/meters')).toBeHidden();
  await failing.locator('details.earlier > summary').click();
  await expect(failing.getByText('POST http://target/v1/meters')).toBeVisible();
  // Where it was seen and how to reproduce it: one click away on the root cause.
  await expect(must.first().locator('pre.repro')).toBeHidden();
  await must.first().locator('details.more > summary').click();
  await expect(must.first().locator('pre.repro')).toContainText('npx mms-conformance run --grep');
  await expect(must.first()).toContainText('getWorkOrder');
  await page.close();
});

test('a reader sees the verdict, the failing requirement and its evidence; filters narrow the list', async ({}, testInfo) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(reportFile()).href);
  await expect(page.locator('#verdict')).toHaveText('not conformant');
  await expect(page.locator('#verdict')).toBeVisible();
  const failing = page.locator('details.req[data-verdict=failed]', { hasText: 'METER-011' });
  await expect(failing).toHaveAttribute('open', '');
  await expect(failing.getByText('expected 409 resource_in_use, got 204')).toBeVisible();
  await expect(failing.getByText('DELETE http://target/v1/meters/mtr_1')).toBeVisible();
  await expect(failing.locator('pre:not(.curl)').getByText('Bearer sk_live_****4437').first()).toBeVisible();
  await page.locator('.failing-list a', { hasText: 'METER-011' }).click();
  await expect(failing.locator('> summary'), 'the failing list jumps to the requirement').toBeInViewport();
  await page.getByRole('link', { name: 'AUTH', exact: true }).click();
  await expect(page.locator('#requirements'), 'a family link shows the list').toBeInViewport();
  for (const id of await page.locator('details.req:visible .id').allTextContents()) expect(id).toMatch(/^AUTH-/);
  await page.selectOption('[data-filter=family]', '');
  await page.selectOption('[data-filter=verdict]', 'not assessed');
  await expect(page.locator('details.req:visible')).toHaveCount(1);
  await expect(page.locator('details.req:visible')).toContainText('the target profile has no keys.revoked');
  await page.selectOption('[data-filter=verdict]', '');
  await page.selectOption('[data-filter=family]', 'meter');
  const meters = await page.locator('details.req:visible .id').allTextContents();
  expect(meters.length).toBeGreaterThan(5);
  for (const id of meters) expect(id).toMatch(/^METER-/);
  await testInfo.attach('report.png', { body: await page.screenshot({ fullPage: false }), contentType: 'image/png' });
  expect(requests.filter((u) => !u.startsWith('file:')), 'the page loads nothing from the network').toEqual([]);
  await page.close();
});
