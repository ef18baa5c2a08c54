/**
 * `client-report` (docs/integrators.md, "A verdict on your client"; catalog family CLIENT): a sample
 * client (client-sample.ts) that follows every client-side rule of the description gets a clean
 * report; the same client breaking one rule once fails exactly that requirement, with the exchanges
 * that show it as evidence. The command reads a running mock's journal, a saved journal or a HAR file,
 * writes JSON, HTML and JUnit, and exits 0 clean, 1 failed, 2 bad input.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCatalog } from '../../contract/catalog.ts';
import { buildClientReport, type ClientReport } from '../../contract/client/report.ts';
import { fromJournal } from '../../contract/client/traffic.ts';
import type { JournalEntry, JournalPage } from '../../contract/journal.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { SampleClient, journey, type Break } from './client-sample.ts';
import { cliRun } from './run-cli.ts';

let mock: RunningMock;
let client: SampleClient;
let keys: string[];

test.beforeAll(async () => {
  mock = await startMock({ port: 0, journal: { enabled: true }, preloadPrism: false });
  const profile = mock.profile.keys as { live: string[]; test: string; otherOrg: string };
  keys = [...profile.live, profile.test, profile.otherOrg];
  client = new SampleClient(mock, profile.live[0]!);
});
test.afterAll(async () => mock?.stop());

/** A fresh world and an empty journal; then the journey; then the journal's entries. */
async function recorded(breaks?: Break): Promise<JournalEntry[]> {
  await client.control('POST', '/reset', {});
  await client.control('DELETE', '/journal');
  await journey(client, breaks);
  return ((await client.control('GET', '/journal?limit=1000')) as JournalPage).entries;
}

const verdicts = (report: ClientReport) => Object.fromEntries(report.requirements.map((r) => [r.id, r.verdict]));

test('the CLIENT requirements quote docs/api-v1.md verbatim, one rule each', () => {
  const doc = readFileSync('docs/api-v1.md', 'utf8');
  const client = loadCatalog().requirements.filter((r) => r.family === 'CLIENT');
  expect(client.map((r) => r.id)).toEqual(['CLIENT-001', 'CLIENT-002', 'CLIENT-003', 'CLIENT-004', 'CLIENT-005', 'CLIENT-006', 'CLIENT-007']);
  for (const r of client) {
    const quote = /\("(.+)"\)\.$/.exec(r.statement)?.[1];
    expect(quote, r.id).toBeTruthy();
    expect(doc.includes(quote!), `${r.id} quotes "${quote}"`).toBe(true);
  }
});

test('a client that follows every rule gets a clean report, each rule exercised', async () => {
  const report = buildClientReport(fromJournal(await recorded()), { kind: 'journal', from: 'test' });
  expect(verdicts(report)).toEqual({ 'CLIENT-001': 'passed', 'CLIENT-002': 'passed', 'CLIENT-003': 'passed', 'CLIENT-004': 'passed', 'CLIENT-005': 'passed', 'CLIENT-006': 'passed', 'CLIENT-007': 'passed' });
  expect(report.verdict).toBe('clean');
});

const BROKEN: Array<[Break, (evidence: JournalEntry[]) => void]> = [
  ['CLIENT-001', ([a, b]) => {
    expect(JSON.parse(a!.request.body!).idempotencyKey).toBe(JSON.parse(b!.request.body!).idempotencyKey);
    expect(JSON.parse(a!.request.body!).targetStatus).not.toBe(JSON.parse(b!.request.body!).targetStatus);
  }],
  ['CLIENT-002', ([a, b]) => {
    expect(a!.status).toBe(503);
    expect(JSON.parse(b!.request.body!).idempotencyKey).toBe('cmd-2-again');
  }],
  ['CLIENT-003', ([a, b]) => {
    expect(a!.status).toBe(429);
    expect(b!.path).toBe('/v1/assets');
  }],
  ['CLIENT-004', ([a, b]) => {
    expect(a!.query).toContain('limit=2');
    expect(b!.query).toContain('limit=3');
  }],
  ['CLIENT-005', ([a, b]) => {
    expect(a!.status).toBe(400);
    expect(b!.query).toBe(a!.query);
  }],
  ['CLIENT-006', ([a, b]) => {
    expect(a!.status).toBe(409);
    expect(b!.method).toBe('POST');
  }],
];

for (const [rule, evidenceShows] of BROKEN) {
  test(`a client that breaks ${rule} once fails exactly ${rule}, with the exchanges that show it`, async () => {
    const entries = await recorded(rule);
    const report = buildClientReport(fromJournal(entries), { kind: 'journal', from: 'test' });
    const failed = report.requirements.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => r.id)).toEqual([rule]);
    expect(failed[0]!.findings).toHaveLength(1);
    const seqs = failed[0]!.findings[0]!.evidence;
    expect(seqs).toHaveLength(2);
    expect(failed[0]!.findings[0]!.exchanges.map((x) => x.seq)).toEqual(seqs);
    evidenceShows(seqs.map((s) => entries.find((e) => e.seq === s)!));
    expect(report.verdict).toBe('not clean');
  });
}

test('a route the description does not show is a portability risk, not a failure', async () => {
  const report = buildClientReport(fromJournal(await recorded('CLIENT-007')), { kind: 'journal', from: 'test' });
  const risk = report.requirements.find((r) => r.id === 'CLIENT-007')!;
  expect(risk.verdict).toBe('risk');
  expect(risk.findings[0]!.message).toContain('GET /vendors: no route of the description');
  expect(report.verdict).toBe('clean');
});

test('the command reads a running mock: exit 0 clean, 1 with a failure; JSON, HTML and JUnit name the evidence; no key in full', async () => {
  await recorded();
  const clean = mkdtempSync(join(tmpdir(), 'client-report-'));
  const ok = await cliRun(['client-report', '--mock', mock.url, '--output', clean], { MMS_MOCK_CONTROL_TOKEN: mock.controlToken! });
  expect(ok.output).toContain('Client report: clean');
  expect(ok.code).toBe(0);
  await recorded('CLIENT-003');
  const dirty = mkdtempSync(join(tmpdir(), 'client-report-'));
  const bad = await cliRun(['client-report', '--mock', mock.url, '--control-token', mock.controlToken!, '--output', dirty]);
  expect(bad.output).toMatch(/failed\s+CLIENT-003/);
  expect(bad.code).toBe(1);
  const json = JSON.parse(readFileSync(join(dirty, 'client-report.json'), 'utf8')) as ClientReport;
  expect(json.requirements.find((r) => r.id === 'CLIENT-003')!.findings[0]!.exchanges[0]!.status).toBe(429);
  const html = readFileSync(join(dirty, 'client-report.html'), 'utf8');
  expect(html).toContain('<span id="verdict">not clean</span>');
  const junit = readFileSync(join(dirty, 'client-report-junit.xml'), 'utf8');
  expect(junit).toMatch(/<testcase[^>]*CLIENT-003[^>]*>\s*<failure/);
  for (const text of [bad.output, JSON.stringify(json), html, junit]) for (const key of keys) expect(text.includes(key)).toBe(false);
});

test('the command reads a HAR file and a saved journal; bad input is one line and exit 2', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'client-report-'));
  const key = keys[0]!;
  const entry = (i: number, at: string, url: string, status: number, headers: Array<{ name: string; value: string }> = []) => ({
    startedDateTime: at, time: 5,
    request: { method: 'GET', url, headers: [{ name: 'Authorization', value: `Bearer ${key}` }] },
    response: { status, headers, content: { text: '{}' } },
  });
  const har = { log: { version: '1.2', entries: [
    entry(0, '2026-01-01T00:00:00.000Z', 'https://mms.example/v1/meters', 429, [{ name: 'Retry-After', value: '30' }]),
    entry(1, '2026-01-01T00:00:10.000Z', 'https://mms.example/v1/meters', 200),
  ] } };
  writeFileSync(join(dir, 'traffic.har'), JSON.stringify(har));
  const fromHar = await cliRun(['client-report', '--har', join(dir, 'traffic.har'), '--output', dir]);
  expect(fromHar.code).toBe(1);
  expect(fromHar.output).toContain('Retry-After: 30');
  expect(fromHar.output.includes(key)).toBe(false);
  await recorded();
  writeFileSync(join(dir, 'journal.json'), JSON.stringify(await client.control('GET', '/journal?limit=1000')));
  expect((await cliRun(['client-report', '--journal', join(dir, 'journal.json'), '--output', dir, '--quiet'])).code).toBe(0);
  writeFileSync(join(dir, 'nothing.json'), '{"hello": 1}');
  for (const args of [[], ['--har', join(dir, 'missing.har')], ['--journal', join(dir, 'nothing.json')], ['--mock', mock.url, '--control-token', 'wrong-token-wrong-token']]) {
    const run = await cliRun(['client-report', ...args, '--output', dir]);
    expect(run.code, args.join(' ')).toBe(2);
    expect(run.output.trim().split('\n'), args.join(' ')).toHaveLength(1);
  }
});
