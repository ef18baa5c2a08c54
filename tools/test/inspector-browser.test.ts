/**
 * The inspector page in a real browser (docs/integrators.md, "The inspector page"): Debian's Chromium
 * through playwright-core opens `/__mock/inspector/` of a mock with the journal on, logs in with the
 * control token, and then: a request sent from outside the page appears in the list without a reload;
 * a filter narrows the list; a fault set from the page changes the next answer; the state of an
 * organization is browsed by record kind; and no API key is ever shown in full.
 */
import { test, expect } from '@playwright/test';
import type { Browser, Page } from 'playwright-core';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { launchChromium } from '../lib/browser.ts';

let browser: Browser;
let mock: RunningMock;
let keys: string[];

test.beforeAll(async () => {
  [browser, mock] = await Promise.all([launchChromium(), startMock({ port: 0, journal: { enabled: true }, preloadPrism: false })]);
  const profile = mock.profile.keys as { live: string[]; test: string; otherOrg: string; scopes: Record<string, string> };
  keys = [...profile.live, profile.test, profile.otherOrg, ...Object.values(profile.scopes)];
});
test.afterAll(async () => {
  await browser?.close();
  await mock?.stop();
});

const api = (path: string, key = keys[0]!) => fetch(`${mock.baseUrl}${path}`, { headers: { Authorization: `Bearer ${key}` } });

/** Every text the page holds: its markup (attributes and inputs included) and the values of its fields. */
async function everything(page: Page): Promise<string> {
  const values = await page.locator('input, textarea').evaluateAll((nodes) => nodes.map((n) => (n as unknown as { value: string }).value));
  return `${await page.content()}\n${values.join('\n')}`;
}

async function login(page: Page): Promise<void> {
  await page.goto(`${mock.url}/__mock/inspector/`);
  await page.fill('#token', mock.controlToken!);
  await page.click('#login button');
  await expect(page.locator('#status')).toHaveText('connected, live');
}

test('a request sent from outside appears live; a filter narrows the list; one exchange shows its stage, validation and curl without the key', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(mock.url)) outside.push(r.url());
  });
  await login(page);
  expect((await api('/meters?limit=2')).status).toBe(200);
  const ok = page.locator('#entries tbody tr', { hasText: '/v1/meters?limit=2' });
  await expect(ok, 'the request appears without a reload').toHaveCount(1);
  expect((await api('/meters?limit=abc')).status).toBe(400);
  expect((await api('/work-orders', 'sk_live_000000000000000000000000000unknown')).status).toBe(401);
  await expect(page.locator('#entries tbody tr')).toHaveCount(3);

  await page.fill('#filters [name=status]', '4xx');
  await expect(page.locator('#entries tbody tr')).toHaveCount(2);
  for (const status of await page.locator('#entries tbody td.st').allTextContents()) expect(status).toMatch(/^4\d\d$/);
  await page.fill('#filters [name=path]', 'listMeters');
  await expect(page.locator('#entries tbody tr')).toHaveCount(1);
  await page.locator('#entries tbody tr').first().click();
  await expect(page.locator('#detail .decided')).toContainText('validation: validation_error (ERR-006)');
  await expect(page.locator('#detail .validation')).toContainText('query limit: type: must be integer');
  await expect(page.locator('#detail .curl')).toContainText(`curl -i -X GET '${mock.url}/v1/meters?limit=abc'`);
  await expect(page.locator('#detail .curl')).toContainText('Authorization: Bearer $MMS_KEY');
  await expect(page.locator('#detail .request')).toContainText(`authorization: Bearer ${keys[0]!.slice(0, 8)}…${keys[0]!.slice(-4)}`);
  const text = await everything(page);
  for (const key of keys) expect(text.includes(key), 'no key in full').toBe(false);
  expect(outside, 'the page loads nothing from elsewhere').toEqual([]);
  await page.close();
});

test('a fault set from the page changes the next answer; the state is browsed by kind; minted keys stay masked', async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const minted: string[] = [];
  page.on('response', (r) => {
    if (/__mock\/(keys|organizations)$/.test(r.url())) r.text().then((t) => minted.push(...(t.match(/sk_(live|test)_[A-Za-z0-9]{24,}/g) ?? [])), () => undefined);
  });
  await login(page);
  await page.click('nav button[data-tab=control]');
  await page.fill('#faults [name=errorRate]', '1');
  await page.selectOption('#faults [name=errorStatus]', '503');
  await page.fill('#faults [name=pathPattern]', '^/v1/assets');
  await page.click('#faults button[type=submit]');
  await expect(page.locator('#faults-now')).toContainText('"errorRate":1');
  expect((await api('/assets')).status, 'the fault answers').toBe(503);
  expect((await api('/meters')).status, 'only where the pattern matches').toBe(200);
  await page.click('#faults-clear');
  await expect(page.locator('#faults-now')).toHaveText('current: {}');
  expect((await api('/assets')).status).toBe(200);

  await page.click('#sandbox button[type=submit]');
  await expect(page.locator('#secrets li')).toHaveCount(1);
  await page.click('#mint button[type=submit]');
  await expect(page.locator('#secrets li')).toHaveCount(2);
  await expect(page.locator('#secrets li').first()).toContainText(/sk_live_…\w{4}/);

  await page.click('nav button[data-tab=state]');
  await expect(page.locator('#org option')).not.toHaveCount(0);
  await page.selectOption('#kind', 'meters');
  await expect(page.locator('#kind-count')).toHaveText(/^\d+ records/);
  await expect(page.locator('#records')).toContainText('"id"');

  await page.click('nav button[data-tab=journal]');
  await page.locator('#entries tbody tr', { hasText: '503' }).first().click();
  await expect(page.locator('#detail .decided')).toContainText('fault: injected_fault');
  expect(minted, 'the minted secrets were answered to the page').toHaveLength(2);
  const text = await everything(page);
  for (const key of [...keys, ...minted]) expect(text.includes(key), 'no key in full').toBe(false);
  expect(text).not.toContain(mock.controlToken!.slice(4));
  await page.close();
});
