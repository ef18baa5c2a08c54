/**
 * The row stores persist every handler's changes (docs/integrators.md, "State and replicas";
 * mock/state/rows.ts, tracker.ts): a write-heavy sequence over every write family (records, readings,
 * parts sections with their stock movements, attachments, identifiers and their payload index, custom
 * fields, asset–part links, control-API settings and keys) on a file store, then the state exported,
 * the store closed and opened again: the export is the same document. A file of the earlier document
 * format is migrated on open. Concurrent writes share a commit and survive kill -9.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { exportState } from '../state/document.ts';
import { startTestMock } from './support.ts';
import { writeEverything } from './state-writes.ts';
import { ACME_LIVE, api, body, killHard, startChildMock } from '../../tools/lib/child-mock.ts';

test.describe.configure({ timeout: 120_000 });

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mock-rows-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('every handler\'s changes are persisted: the export after reopening the file store is the export before', async () => {
  const file = join(dir, 'state.db');
  const a = await startTestMock({ state: file });
  let before: unknown;
  try {
    await writeEverything(a);
    before = exportState(a.mock.app.world);
  } finally {
    await a.mock.stop();
  }
  const b = await startTestMock({ state: file });
  try {
    expect(exportState(b.mock.app.world)).toEqual(before);
  } finally {
    await b.mock.stop();
  }
});

test('a file of the earlier document format is migrated to rows on open, its state kept', async () => {
  const file = join(dir, 'old.db');
  const a = await startTestMock({ state: join(dir, 'seed.db') });
  const before = exportState(a.mock.app.world);
  await a.mock.stop();
  const db = new Database(file);
  db.exec('CREATE TABLE state (key TEXT PRIMARY KEY, pos INTEGER NOT NULL, doc TEXT NOT NULL)');
  const put = db.prepare('INSERT INTO state (key, pos, doc) VALUES (?, ?, ?)');
  put.run('world', 0, JSON.stringify(before.world));
  before.organizations.forEach((o, i) => put.run(`org:${o.id}`, i + 1, JSON.stringify(o)));
  db.close();
  const b = await startTestMock({ state: file });
  try {
    expect(exportState(b.mock.app.world)).toEqual(before);
  } finally {
    await b.mock.stop();
  }
  const after = new Database(file);
  expect(after.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'state'").get()).toEqual({ n: 0 });
  expect((after.prepare('SELECT count(*) AS n FROM records').get() as { n: number }).n).toBeGreaterThan(100);
  after.close();
});

test('50 concurrent creates share group commits: every one answered 201 is read back after kill -9', async () => {
  const file = join(dir, 'group.db');
  const first = await startChildMock(['--state', file]);
  const created = await Promise.all(Array.from({ length: 50 }, (_, i) => api(first.url, ACME_LIVE, '/v1/assets', { method: 'POST', body: { name: `Group ${i}` } })));
  expect(created.map((r) => r.status)).toEqual(Array(50).fill(201));
  const ids = await Promise.all(created.map(async (r) => (await body(r)).data.id as string));
  await killHard(first);
  const second = await startChildMock(['--state', file]);
  try {
    const read = await Promise.all(ids.map((id) => api(second.url, ACME_LIVE, `/v1/assets/${id}`)));
    expect(read.map((r) => r.status)).toEqual(Array(50).fill(200));
  } finally {
    await killHard(second);
  }
});
