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

function reportFile(): string {
  const catalog = loadCatalog();
  const outcomes: TestOutcome[] = catalog.requirements.filter((r) => r.testable).map((r) => ({
    id: r.id, title: `proves ${r.id}`, file: 'suites/conformance/meters.spec.ts', line: 7, project: 'conformance', tags: [`@${r.id}`], durationMs: 12,
    status: r.id === 'METER-011' ? 'failed' : r.id === 'AUTH-008' ? 'skipped' : 'passed',
    errors: r.id === 'METER-011' ? ['DELETE /meters/mtr_1: expected 409 resource_in_use, got 204'] : [],
    ...(r.id === 'AUTH-008' ? { skipReason: 'not assessed: the target profile has no keys.revoked' } : {}),
    ...(r.id === 'METER-011' ? { evidence: { requests: 1, checkFailures: [], exchanges: [{ method: 'DELETE', url: 'http://target/v1/meters/mtr_1', path: '/meters/mtr_1', requestHeaders: { authorization: 'Bearer sk_live_****4437' }, status: 204, responseHeaders: { 'x-request-id': 'req_42' }, responseBody: '', durationMs: 4, authenticated: true, retries: [] }] } } : {}),
  }));
  const report = buildReport(outcomes, { catalog, tool: { name: 'kit', version: '0.1.0' }, target: { name: 'Vendor staging', baseUrl: 'http://target/v1', embedded: false }, spec: { title: 'Maintenance Management Service API', version: '1.0' }, startedAt: new Date(), finishedAt: new Date(), shard: null });
  const file = join(mkdtempSync(join(tmpdir(), 'report-')), 'conformance.html');
  writeFileSync(file, renderHtml(report));
  return file;
}

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
  await expect(failing.locator('pre:not(.curl)').getByText('Bearer sk_live_****4437')).toBeVisible();
  await page.locator('.failing-list a', { hasText: 'METER-011' }).click();
  await expect(failing.locator('summary'), 'the failing list jumps to the requirement').toBeInViewport();
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
