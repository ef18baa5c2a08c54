/**
 * Replicas on one PostgreSQL behave as one service (docs/integrators.md, "State and replicas"): a
 * throwaway cluster (postgres-support.ts), two mock replicas as child processes and a round-robin client.
 * A record written through one replica is read through the other at once; of 50 concurrent parts
 * commands on one version spread over both replicas exactly one applies; an idempotent retry through
 * the other replica gets the original answer; a key's rate budget is shared, its revocation immediate; a replica killed with
 * `kill -9` and started again serves everything acknowledged.
 */
import { test, expect } from '@playwright/test';
import { ACME_LIVE, api, body, control, killHard, startChildMock, type ChildMock } from '../../tools/lib/child-mock.ts';
import { startPostgres, type Postgres } from '../../tools/lib/postgres.ts';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

let pg: Postgres;
let replicas: ChildMock[] = [];
let turn = 0;
/** The next replica's base URL, round robin. */
const next = () => replicas[turn++ % replicas.length]!.url;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  pg = await startPostgres();
  // The first replica seeds the empty database; the second loads it.
  replicas.push(await startChildMock(['--state', pg.url]));
  replicas.push(await startChildMock(['--state', pg.url]));
  expect(replicas[0]!.output.stdout).toContain('(new, seeded)');
  expect(replicas[1]!.output.stdout).toContain('(loaded)');
});

test.afterAll(async () => {
  await Promise.all(replicas.map((r) => killHard(r)));
  pg?.stop();
});

test('a record written through one replica is read through the other at once, and so is its change', async () => {
  const [a, b] = [replicas[0]!.url, replicas[1]!.url];
  const created = await api(a, ACME_LIVE, '/v1/assets', { method: 'POST', body: { name: 'Replicated pump' } });
  expect(created.status).toBe(201);
  const asset = (await body(created)).data;
  const read = await api(b, ACME_LIVE, `/v1/assets/${asset.id}`);
  expect(read.status).toBe(200);
  expect((await body(read)).data).toEqual(asset);
  const changed = await api(b, ACME_LIVE, `/v1/assets/${asset.id}`, { method: 'PATCH', body: { name: 'Replicated pump, renamed' } });
  expect(changed.status).toBe(200);
  expect((await body(api(a, ACME_LIVE, `/v1/assets/${asset.id}`))).data.name).toBe('Replicated pump, renamed');
});

test('a list page one replica has served (and cached) shows a write through the other at once', async () => {
  const [a, b] = [replicas[0]!.url, replicas[1]!.url];
  const list = async () => (await body(api(b, ACME_LIVE, '/v1/work-orders?limit=3&direction=desc'))) as { data: Array<{ id: string; title: string }>; meta: { pagination: { total_count: number } } };
  const before = await list();
  expect((await list()).data).toEqual(before.data);
  const created = (await body(api(a, ACME_LIVE, '/v1/work-orders', { method: 'POST', body: { title: 'Listed through the other replica' } }))).data;
  const after = await list();
  expect(after.data[0]!.id).toBe(created.id);
  expect(after.meta.pagination.total_count).toBe(before.meta.pagination.total_count + 1);
  expect((await api(a, ACME_LIVE, `/v1/work-orders/${created.id}`, { method: 'PATCH', body: { title: 'Renamed through the first replica' } })).status).toBe(200);
  expect((await list()).data[0]!.title).toBe('Renamed through the first replica');
});

test('50 concurrent commands on one parts-section version over two replicas: exactly one applies; a retry through the other replica replays it', async () => {
  const wo = (await body(api(next(), ACME_LIVE, '/v1/work-orders', { method: 'POST', body: { title: 'Contended section' } }))).data;
  const section = await body(api(next(), ACME_LIVE, `/v1/work-orders/${wo.id}/parts`));
  const command = (i: number) => ({ operation: 'transition', idempotencyKey: `race-${i}`, expectedAggregateVersion: section.aggregateVersion, targetStatus: section.capabilities.allowedTransitions[0] });
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => api(next(), ACME_LIVE, `/v1/work-orders/${wo.id}/parts`, { method: 'POST', body: command(i) }).then(async (r) => ({ i, status: r.status, text: await r.text() }))));
  const applied = answers.filter((a) => a.status === 200);
  expect(applied).toHaveLength(1);
  expect(answers.filter((a) => a.status === 409)).toHaveLength(49);
  for (const replica of replicas) {
    const retry = await api(replica.url, ACME_LIVE, `/v1/work-orders/${wo.id}/parts`, { method: 'POST', body: command(applied[0]!.i) });
    expect(retry.status).toBe(200);
    expect(await retry.text()).toBe(applied[0]!.text);
  }
});

test('a key minted through one replica works through the other, and its rate budget is shared', async () => {
  const minted = await control(replicas[0]!.url, '/__mock/keys', { method: 'POST', body: { orgId: 'org_acme', prefix: 'test', label: 'shared budget' } });
  expect(minted.status).toBe(201);
  const secret = (await body(minted)).secret as string;
  // 120 requests in one one-minute window (start at least 20 s before the window ends).
  if (Date.now() % 60_000 > 40_000) await new Promise((done) => setTimeout(done, 60_000 - (Date.now() % 60_000) + 100));
  const answers = await Promise.all(Array.from({ length: 120 }, () => api(next(), secret, '/v1/assets?limit=1').then((r) => ({ status: r.status, remaining: Number(r.headers.get('x-ratelimit-remaining')) }))));
  expect(answers.filter((a) => a.status === 200)).toHaveLength(100);
  expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
  // Each request took its own slot of the one window, whichever replica and shared catch-up counted it.
  expect(answers.filter((a) => a.status === 200).map((a) => a.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, k) => k));
});

test('a key revoked through one replica is refused by the other at once', async () => {
  const minted = await body(control(replicas[0]!.url, '/__mock/keys', { method: 'POST', body: { orgId: 'org_acme', label: 'to revoke' } }));
  expect((await api(replicas[1]!.url, minted.secret, '/v1/assets?limit=1')).status).toBe(200);
  expect((await control(replicas[0]!.url, `/__mock/keys/${minted.id}/revoke`, { method: 'POST' })).status).toBe(204);
  expect((await api(replicas[1]!.url, minted.secret, '/v1/assets?limit=1')).status).toBe(401);
});

test('a replica killed with kill -9 after an acknowledged write serves it when started again', async () => {
  const created = await api(replicas[1]!.url, ACME_LIVE, '/v1/assets', { method: 'POST', body: { name: 'Survives a replica crash' } });
  expect(created.status).toBe(201);
  const asset = (await body(created)).data;
  await killHard(replicas[1]!);
  replicas[1] = await startChildMock(['--state', pg.url]);
  expect((await body(api(replicas[1]!.url, ACME_LIVE, `/v1/assets/${asset.id}`))).data).toEqual(asset);
});
