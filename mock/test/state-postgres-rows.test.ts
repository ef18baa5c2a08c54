/**
 * PostgreSQL replicas keep each other up to date row by row (docs/integrators.md, "State and replicas";
 * mock/state/postgres-store.ts): after a write-heavy sequence through one replica (state-writes.ts), a
 * second replica that caught up row by row and a third that loaded everything at start hold the same
 * state; a reset through one replica (a new generation) makes the others reload everything; a database
 * of the earlier document format is migrated.
 */
import { test, expect } from '@playwright/test';
import pg from 'pg';
import { exportState } from '../state/document.ts';
import { startPostgres, type Postgres } from '../../tools/lib/postgres.ts';
import { startTestMock, type TestMock } from './support.ts';
import { writeEverything } from './state-writes.ts';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

let pg_: Postgres;
const mocks: TestMock[] = [];
test.beforeAll(async () => {
  test.setTimeout(180_000);
  pg_ = await startPostgres();
});
test.afterAll(async () => {
  await Promise.all(mocks.map((m) => m.mock.stop()));
  pg_?.stop();
});

/** The state as replica `m` holds it once caught up (a control read catches up first). */
async function caughtUp(m: TestMock): Promise<unknown> {
  expect((await m.call('/__mock/health')).status).toBe(200);
  return exportState(m.mock.app.world);
}

test('a replica catching up row by row and one loading at start hold the state the writing replica holds', async () => {
  const a = await startTestMock({ state: pg_.url });
  const b = await startTestMock({ state: pg_.url });
  mocks.push(a, b);
  await caughtUp(b);
  await writeEverything(a);
  const written = exportState(a.mock.app.world);
  expect(await caughtUp(b)).toEqual(written);
  const c = await startTestMock({ state: pg_.url });
  mocks.push(c);
  expect(exportState(c.mock.app.world)).toEqual(written);
});

test('a reset through one replica makes the others reload everything', async () => {
  const [a, b] = mocks as [TestMock, TestMock];
  const before = exportState(a.mock.app.world) as { organizations: Array<{ assets: unknown[] }> };
  expect((await b.call('/__mock/reset', { method: 'POST', body: '{}' })).status).toBe(200);
  const reset = exportState(b.mock.app.world) as { organizations: Array<{ assets: unknown[] }> };
  expect(reset.organizations[0]!.assets.length).toBeLessThan(before.organizations[0]!.assets.length);
  // Id counters only move forward (a replica never issues an id twice): the rest is the reset state.
  expect(withoutCounters(await caughtUp(a))).toEqual(withoutCounters(reset));
});

function withoutCounters(doc: unknown): unknown {
  const d = structuredClone(doc) as { world: { counters?: unknown }; organizations: Array<{ counters?: unknown }> };
  delete d.world.counters;
  for (const o of d.organizations) delete o.counters;
  return d;
}

test('a database of the earlier document format is migrated to rows on open, its state kept', async () => {
  const before = exportState(mocks[0]!.mock.app.world);
  const admin = new pg.Client({ connectionString: pg_.url });
  await admin.connect();
  await admin.query('CREATE DATABASE old_format');
  await admin.end();
  const url = pg_.url.replace(/\/[^/]*$/, '/old_format');
  const old = new pg.Client({ connectionString: url });
  await old.connect();
  await old.query('CREATE TABLE mock_state (key text PRIMARY KEY, pos integer NOT NULL, revision bigint NOT NULL, doc text NOT NULL)');
  await old.query('INSERT INTO mock_state VALUES ($1, 0, 1, $2)', ['world', JSON.stringify(before.world)]);
  for (const [i, o] of before.organizations.entries()) await old.query('INSERT INTO mock_state VALUES ($1, $2, 1, $3)', [`org:${o.id}`, i + 1, JSON.stringify(o)]);
  await old.end();
  const m = await startTestMock({ state: url });
  mocks.push(m);
  expect(exportState(m.mock.app.world)).toEqual(before);
  const check = new pg.Client({ connectionString: url });
  await check.connect();
  expect((await check.query("SELECT to_regclass('mock_state') AS t")).rows[0].t).toBeNull();
  await check.end();
});
