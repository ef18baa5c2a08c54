/**
 * The file store is durable (docs/integrators.md, "State and replicas"): writes acknowledged with a 2xx
 * are read back after `kill -9` and a restart on the same file; so are a key minted through the control
 * API, the clock's advance, a cursor minted before the restart, an idempotent retry's original answer
 * and the rate-limit window's count. A second process on the same file refuses to start.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACME_LIVE, ACME_TEST, api, body, control, killHard, startChildMock } from '../../tools/lib/child-mock.ts';

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mock-state-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('kill -9 right after the 2xx answers loses nothing: records, keys, clock, cursors, idempotent answers, rate windows', async () => {
  const file = join(dir, 'state.db');
  const first = await startChildMock(['--state', file]);
  expect(first.output.stdout).toContain('(new, seeded)');
  const base = first.url;

  const created = await api(base, ACME_LIVE, '/v1/assets', { method: 'POST', body: { name: 'Durable pump' } });
  expect(created.status).toBe(201);
  const asset = (await body(created)).data;

  const wo = (await body(api(base, ACME_LIVE, '/v1/work-orders', { method: 'POST', body: { title: 'Durable work order' } }))).data;
  const section = await body(api(base, ACME_LIVE, `/v1/work-orders/${wo.id}/parts`));
  const command = { operation: 'transition', idempotencyKey: 'durable-1', expectedAggregateVersion: section.aggregateVersion, targetStatus: section.capabilities.allowedTransitions[0] };
  const applied = await api(base, ACME_LIVE, `/v1/work-orders/${wo.id}/parts`, { method: 'POST', body: command });
  expect(applied.status).toBe(200);
  const appliedBody = await applied.text();

  // The clock moves first: a cursor minted after it is within its 15-minute lifetime after the restart.
  expect((await control(base, '/__mock/clock/advance', { method: 'POST', body: { seconds: 3600 } })).status).toBe(200);
  const page = await body(api(base, ACME_LIVE, '/v1/assets?limit=2'));
  const cursor = page.meta.pagination.cursor as string;
  const nextBefore = await body(api(base, ACME_LIVE, `/v1/assets?limit=2&cursor=${encodeURIComponent(cursor)}`));

  const minted = await control(base, '/__mock/keys', { method: 'POST', body: { orgId: 'org_acme', scopes: ['assets:read'], label: 'durable' } });
  expect(minted.status).toBe(201);
  const secret = (await body(minted)).secret as string;

  let remaining = '';
  for (let i = 0; i < 3; i++) remaining = (await api(base, ACME_TEST, '/v1/assets?limit=1')).headers.get('x-ratelimit-remaining')!;
  // Rate windows are written behind (every second, with every write and every control request): this
  // control request writes them, so the kill below cannot fall between a count and its write.
  expect((await control(base, '/__mock/health')).status).toBe(200);
  await killHard(first);

  const second = await startChildMock(['--state', file]);
  try {
    expect(second.output.stdout).toContain('(loaded)');
    const read = await api(second.url, ACME_LIVE, `/v1/assets/${asset.id}`);
    expect(read.status).toBe(200);
    expect((await body(read)).data).toEqual(asset);

    const retry = await api(second.url, ACME_LIVE, `/v1/work-orders/${wo.id}/parts`, { method: 'POST', body: command });
    expect(retry.status).toBe(200);
    expect(await retry.text()).toBe(appliedBody);

    const nextAfter = await api(second.url, ACME_LIVE, `/v1/assets?limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(nextAfter.status).toBe(200);
    expect((await body(nextAfter)).data).toEqual(nextBefore.data);

    expect((await api(second.url, secret, `/v1/assets/${asset.id}`)).status).toBe(200);
    expect((await body(control(second.url, '/__mock/clock'))).totalAdvancedSeconds).toBe(3600);

    const counted = await api(second.url, ACME_TEST, '/v1/assets?limit=1');
    // The same one-minute window unless the restart crossed a minute boundary (then a fresh budget of 100).
    expect([String(Number(remaining) - 1), '99']).toContain(counted.headers.get('x-ratelimit-remaining'));
  } finally {
    await killHard(second);
  }
});

test('a second process on the same file refuses to start with one line and exit code 2', async () => {
  const file = join(dir, 'state.db');
  const first = await startChildMock(['--state', file]);
  try {
    const second = await startChildMock(['--state', file]).then(() => 'started', (e: Error) => e.message);
    expect(second).toContain('another process holds it');
  } finally {
    await killHard(first);
  }
});
