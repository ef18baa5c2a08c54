/** The report's verdict rules (design.md §6). */
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../contract/catalog.ts';
import { buildReport } from '../reporter/verdicts.ts';
import type { TestOutcome } from '../reporter/model.ts';

const catalog = loadCatalog();
const ctx = { catalog, tool: { name: 't', version: '0' }, target: { name: 'x', baseUrl: 'http://x/v1', embedded: false }, spec: { title: 's', version: '1.0' }, startedAt: new Date(0), finishedAt: new Date(1000), shard: null };
const outcome = (tags: string[], status: TestOutcome['status'], extra: Partial<TestOutcome> = {}): TestOutcome => ({ id: Math.random().toString(), title: tags.join(' '), file: 'f', line: 1, project: 'p', tags, status, durationMs: 1, errors: status === 'failed' ? ['boom'] : [], ...extra });
const every = (status: TestOutcome['status']) => catalog.requirements.filter((r) => r.testable).map((r) => outcome([`@${r.id}`], status));

test('every testable must requirement passing is conformant; untestable ones are reported as such', () => {
  const report = buildReport(every('passed'), ctx);
  expect(report.verdict).toBe('conformant');
  expect(report.summary.must.untestable).toBe(catalog.requirements.filter((r) => r.level === 'must' && !r.testable).length);
  expect(report.requirements.find((r) => r.id === 'AUTH-012')!.verdict).toBe('untestable');
});

test('one failed must requirement makes it not conformant; a failed inferred one does not', () => {
  const inferredFail = every('passed').map((o) => (o.tags[0] === '@AUTH-006' ? { ...o, status: 'failed' as const, errors: ['x'] } : o));
  expect(buildReport(inferredFail, ctx).verdict).toBe('conformant');
  const mustFail = every('passed').map((o) => (o.tags[0] === '@AUTH-001' ? { ...o, status: 'failed' as const, errors: ['x'] } : o));
  const report = buildReport(mustFail, ctx);
  expect(report.verdict).toBe('not conformant');
  expect(report.requirements.find((r) => r.id === 'AUTH-001')!.failures[0]!.message).toBe('x');
});

test('a skipped must requirement makes it incomplete, with the skip reason', () => {
  const skipped = every('passed').map((o) => (o.tags[0] === '@AUTH-008' ? { ...o, status: 'skipped' as const, skipReason: 'not assessed: the target profile has no keys.revoked' } : o));
  const report = buildReport(skipped, ctx);
  expect(report.verdict).toBe('incomplete');
  expect(report.requirements.find((r) => r.id === 'AUTH-008')).toMatchObject({ verdict: 'not assessed', reason: 'not assessed: the target profile has no keys.revoked' });
});

test('a universal check failure fails the requirement it proves, with its evidence', () => {
  const withCheck = every('passed');
  withCheck[0] = { ...withCheck[0]!, evidence: { requests: 1, exchanges: [{ method: 'GET', url: 'u', path: '/p', requestHeaders: {}, status: 200, responseHeaders: {}, responseBody: '', durationMs: 1, authenticated: true, retries: [] }], checkFailures: [{ check: 'requestIdPresent', requirement: 'REQID-001', message: 'no id', exchange: 0 }] } };
  const report = buildReport(withCheck, ctx);
  const req = report.requirements.find((r) => r.id === 'REQID-001')!;
  expect(req.verdict).toBe('failed');
  expect(req.failures.find((f) => f.check === 'requestIdPresent')!.evidence).toHaveLength(1);
  expect(report.checks).toEqual([{ name: 'requestIdPresent', requirement: 'REQID-001', failures: 1 }]);
});

test('tags naming no requirement are listed', () => {
  expect(buildReport([outcome(['@NOPE-001', '@slow'], 'passed')], ctx).unknownTags).toEqual(['NOPE-001']);
});
