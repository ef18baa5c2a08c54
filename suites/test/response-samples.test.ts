/**
 * Shared sample responses (suites/lib/response-samples.ts): a set is made once per pool and key, its
 * requests count in the session that sent them, a later session borrows them as evidence of its own
 * (contract/exchange.ts `sentBy`, evidenceOf), and a set whose making threw is made again.
 */
import { test, expect } from '@playwright/test';
import { ApiClient, tracked, type ApiResponse, type ClientSession } from '../lib/client.ts';
import { evidenceOf, type Exchange } from '../../contract/exchange.ts';
import { SamplePool } from '../lib/response-samples.ts';
import { loadCatalog } from '../../contract/catalog.ts';
import { buildReport } from '../reporter/verdicts.ts';
import { reportProblems } from '../../cli/report-file.ts';
import type { TestOutcome } from '../../contract/report/model.ts';

/** A session as the fixtures make one, without a request context (the pool never sends through it). */
function session(passing = true): ClientSession {
  return {
    request: undefined as never, baseUrl: 'http://127.0.0.1:1/v1', governor: undefined as never, redactor: undefined as never,
    checkState: { requestIds: new Set() }, exchanges: [], checkFailures: [], pace: true, lastRead: -1, cookiesSet: false, requestTimeoutMs: 30_000,
    stillPassing: () => passing,
  };
}

/** Records a response in `s` as ApiClient.send would, and returns it as the test sees it. */
function received(s: ClientSession, path: string, status: number, json: unknown): ApiResponse {
  const exchange: Exchange = {
    method: 'GET', url: `http://127.0.0.1:1/v1${path}`, path, requestHeaders: {}, status, responseHeaders: { 'x-request-id': `req_${path}` },
    responseBody: JSON.stringify(json), json, durationMs: 1, authenticated: true, retries: [],
  };
  s.exchanges.push(exchange);
  return tracked(s, s.exchanges.length - 1, { status, headers: exchange.responseHeaders, body: json, text: exchange.responseBody, exchange });
}

const client = (s: ClientSession) => new ApiClient(s, { header: null });

test('the first session sends a set; a later one borrows it: its evidence, the sender\'s requests', async () => {
  const pool = new SamplePool();
  const sender = session();
  const borrower = session(false);
  let made = 0;
  const make = async () => {
    made++;
    return { read: received(sender, '/meters/m1', 200, { data: { id: 'm1' } }), missing: undefined };
  };
  const sent = await pool.get(client(sender), 'meter', make);
  expect(sent.read!.status).toBe(200);
  const borrowed = await pool.get(client(borrower), 'meter', make);
  expect(made).toBe(1);
  expect(borrowed.missing).toBeUndefined();
  expect(borrowed.read!.body).toEqual({ data: { id: 'm1' } });
  expect(borrowed.read!.text).toBe('{"data":{"id":"m1"}}');
  expect(borrower.exchanges).toHaveLength(1);
  expect(borrower.exchanges[0]!.sentBy).toBe(test.info().title);
  expect(sender.exchanges[0]!.sentBy).toBeUndefined();
  expect(evidenceOf(sender, false).requests).toBe(1);
  // The borrower failed on the borrowed response: it is its evidence, named as sent by another test.
  const evidence = evidenceOf(borrower, true);
  expect(evidence.requests).toBe(0);
  expect(evidence.exchanges[evidence.failedExchange!]).toMatchObject({ path: '/meters/m1', status: 200, sentBy: test.info().title });
});

test('reading a borrowed response marks it as the one the borrower looked at; borrowing twice adds one copy', async () => {
  const pool = new SamplePool();
  const sender = session();
  const borrower = session();
  const make = async () => ({ list: received(sender, '/meters', 200, { data: [] }), single: received(sender, '/meters/m1', 200, { data: { id: 'm1' } }) });
  await pool.get(client(sender), 'meters', make);
  received(borrower, '/assets', 200, { data: [] });
  const first = await pool.get(client(borrower), 'meters', make);
  const again = await pool.get(client(borrower), 'meters', make);
  expect(borrower.exchanges.map((x) => x.path)).toEqual(['/assets', '/meters', '/meters/m1']);
  expect(again.list).toBe(first.list);
  void first.list!.status;
  expect(borrower.lastRead).toBe(1);
  void again.single!.headers;
  expect(borrower.lastRead).toBe(2);
});

test('the sending session gets its own responses back, not copies', async () => {
  const pool = new SamplePool();
  const sender = session();
  const make = async () => ({ read: received(sender, '/meters/m1', 200, {}) });
  const first = await pool.get(client(sender), 'meter', make);
  const second = await pool.get(client(sender), 'meter', make);
  expect(second.read).toBe(first.read);
  expect(sender.exchanges).toHaveLength(1);
});

test('a set whose making threw is made again by the next get', async () => {
  const pool = new SamplePool();
  const s = session();
  await expect(pool.get(client(s), 'meter', async () => { throw new Error('request timed out'); })).rejects.toThrow('timed out');
  const one = await pool.one(client(s), 'meter', async () => received(s, '/meters/m2', 201, {}));
  expect(one.status).toBe(201);
});

test('a report whose evidence holds a borrowed exchange validates against spec/report.schema.json', async () => {
  const pool = new SamplePool();
  const sender = session();
  const borrower = session(false);
  await pool.get(client(sender), 'meter', async () => ({ read: received(sender, '/meters/m1', 200, {}) }));
  void (await pool.get(client(borrower), 'meter', async () => ({}))).read!.status;
  const catalog = loadCatalog();
  const outcomes: TestOutcome[] = catalog.requirements.filter((r) => r.testable).map((r) => ({
    id: r.id, title: `proves ${r.id}`, file: 'suites/conformance/x.spec.ts', line: 1, project: 'conformance', tags: [`@${r.id}`], durationMs: 5,
    status: r.id === 'VER-003' ? 'failed' : 'passed', errors: r.id === 'VER-003' ? ['VER-003 broke'] : [],
    ...(r.id === 'VER-003' ? { evidence: evidenceOf(borrower, true) } : {}),
  }));
  const report = buildReport(outcomes, { catalog, tool: { name: 't', version: '0' }, target: { name: 'x', baseUrl: 'http://x/v1', embedded: false }, spec: { title: 's', version: '1.0' }, startedAt: new Date('2026-11-25T10:00:00Z'), finishedAt: new Date('2026-11-25T10:01:00Z'), shard: null });
  expect(reportProblems(report)).toEqual([]);
  expect(JSON.stringify(report)).toContain(`"sentBy":"${test.info().title}"`);
});
