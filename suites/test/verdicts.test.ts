/** The report's verdict rules (docs/design.md §6). */
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../contract/catalog.ts';
import { buildReport, failedRequirementsOf, withinLevel } from '../reporter/verdicts.ts';
import { proves } from '../lib/proves.ts';
import type { TestOutcome } from '../../contract/report/model.ts';
import { evidenceOf, type Exchange } from '../../contract/exchange.ts';
import { withRerunCommand } from '../reporter/property-failure.ts';

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

const exchange = (status: number, path = '/meters'): Exchange => ({ method: 'GET', url: `http://x/v1${path}`, path, requestHeaders: {}, status, responseHeaders: {}, responseBody: '{"data":[],"meta":{"pagination":{}}}', durationMs: 1, authenticated: true, retries: [] });
const cursorMissing = (exchange: number) => ({ check: 'schemaValid', requirement: 'SPEC-002', message: "listMeters 200 body: /meta/pagination must have required property 'cursor'", operationId: 'listMeters', status: 200, at: '/meta/pagination/cursor', exchange });
const byId = (report: ReturnType<typeof buildReport>, id: string) => report.requirements.find((r) => r.id === id)!;

test('a universal check failure fails only its own requirement: the tests that listed still pass their tags', () => {
  const outcomes = every('passed').map((o) => (['@METER-003', '@READ-001', '@TENANT-002'].includes(o.tags[0]!)
    ? { ...o, evidence: evidenceOf({ exchanges: [exchange(200), exchange(200)], checkFailures: [cursorMissing(0), cursorMissing(1)], lastRead: 1 }, false) }
    : o));
  const report = buildReport(outcomes, ctx);
  expect(byId(report, 'SPEC-002').verdict).toBe('failed');
  for (const id of ['METER-003', 'READ-001', 'TENANT-002']) expect(byId(report, id).verdict).toBe('passed');
  expect(report.summary.must.failed).toBe(1);
  expect(report.rootCauses).toHaveLength(1);
  expect(report.rootCauses[0]).toMatchObject({ kind: 'check', requirements: ['SPEC-002'], operationId: 'listMeters', status: 200, at: '/meta/pagination/cursor', exchanges: 6, tests: 3 });
  expect(report.rootCauses[0]!.summary).toBe("`listMeters` 200 `/meta/pagination/cursor`: /meta/pagination must have required property 'cursor' (SPEC-002, check schemaValid), seen in 6 exchanges");
  expect(byId(report, 'SPEC-002')).toMatchObject({ rootCauses: ['rc-1'], failures: [{ check: 'schemaValid', at: '/meta/pagination/cursor', rootCause: 'rc-1' }] });
  expect(byId(report, 'SPEC-002').failures[0]!.evidence).toHaveLength(1);
});

test("a test's own failing assertion fails its tags, with the exchange the assertion read as evidence", () => {
  const read = exchange(201, '/meters');
  const evidence = evidenceOf({ exchanges: [exchange(200), read, exchange(204, '/meters/m1')], checkFailures: [], lastRead: 1 }, true);
  const outcomes = every('passed').map((o) => (o.tags[0] === '@METER-004' ? { ...o, status: 'failed' as const, errors: ['expected 200\nreceived 201'], evidence } : o));
  const report = buildReport(outcomes, ctx);
  const req = byId(report, 'METER-004');
  expect(req.verdict).toBe('failed');
  expect(req.failures[0]!.evidence.at(-1)).toMatchObject({ status: 201 });
  expect(req.failures[0]!.evidence).toHaveLength(2);
  expect(report.rootCauses[0]).toMatchObject({ kind: 'assertion', requirements: ['METER-004'] });
  expect(report.rootCauses[0]!.summary).toContain('expected 200');
});

test("a failed assertion naming its requirements fails only those of the test's tags; the rest stay as other tests prove them", () => {
  const model = outcome(['@PARTS-006', '@PARTS-016', '@PARTS-017'], 'failed', { errors: [`Property failed: ${proves(['PARTS-016'], 'a stale version')}\nexpected 409\nreceived 200`] });
  const outcomes = every('passed').filter((o) => !['@PARTS-016', '@PARTS-017'].includes(o.tags[0]!)).concat(model);
  const report = buildReport(outcomes, ctx);
  expect(byId(report, 'PARTS-016').verdict).toBe('failed');
  expect(byId(report, 'PARTS-006').verdict).toBe('passed');
  expect(byId(report, 'PARTS-017').verdict).toBe('not assessed');
  expect(failedRequirementsOf(['PARTS-006', 'PARTS-016'], 'Error: unnamed assertion\n[PARTS-016] on a later line')).toEqual(['PARTS-006', 'PARTS-016']);
  // An assertion naming only requirements the test is not tagged with belongs to those (each assertion to its own requirement).
  expect(failedRequirementsOf(['PARTS-002'], proves(['PARTS-016'], 'a stale version'))).toEqual(['PARTS-016']);
  const stale = outcome(['@PARTS-002'], 'failed', { errors: [`Property failed: Error: ${proves(['PARTS-016'], 'a stale version')}\nexpected 409\nreceived 400`] });
  const staleReport = buildReport(every('passed').filter((o) => !['@PARTS-002', '@PARTS-016'].includes(o.tags[0]!)).concat(stale), ctx);
  expect(byId(staleReport, 'PARTS-016').verdict).toBe('failed');
  expect(byId(staleReport, 'PARTS-002').verdict).toBe('not assessed');
  // As fast-check reports a property's assertion under its counterexample.
  expect(failedRequirementsOf(['SPEC-001', 'SPEC-004'], `Shrunk counterexample: [1]\nError: Property failed after 1 tests\nGot error: ${proves(['SPEC-001'], 'createMeter: 200 is documented')}`)).toEqual(['SPEC-001']);
  // As Playwright reports a failed property: the error's name first, the assertion as its cause.
  const reported = withRerunCommand(`Error: Property failed after 1 tests\n{ seed: 5, path: "0", endOnFailure: true }\nCounterexample: [retry]\nCaused by: Error: ${proves(['PARTS-017'], 'the retry answers the original status')}`, 't');
  expect(failedRequirementsOf(['PARTS-016', 'PARTS-017'], reported)).toEqual(['PARTS-017']);
  expect(reported).toContain('Rerun: FC_SEED=5 FC_PATH=0');
});

test('a test skipped because a precondition could not be met reports its requirements not assessed, never failed', () => {
  const reason = 'not assessed: precondition not met: POST /assets answered 404 (an operation the description does not show)';
  const outcomes = every('passed').map((o) => (o.tags[0] === '@METER-006' ? { ...o, status: 'skipped' as const, skipReason: reason, evidence: evidenceOf({ exchanges: [exchange(404, '/assets')], checkFailures: [], lastRead: 0 }, false) } : o));
  const report = buildReport(outcomes, ctx);
  expect(byId(report, 'METER-006')).toMatchObject({ verdict: 'not assessed', reason, failures: [] });
  expect(report.rootCauses).toEqual([]);
  expect(report.verdict).toBe('incomplete');
});

test('a property failure carries its assertion, shrunk counterexample and a rerun command with FC_SEED and FC_PATH', () => {
  const message = 'Property failed after 7 tests\n{ seed: 42, path: "6:0", endOnFailure: true }\nCounterexample: ["Bearer  x"]\nShrunk 1 time(s)\nCaused by: expected 401, got 200';
  const shown = withRerunCommand(message, 'malformed "Authorization" is 401');
  expect(shown.split('\n')[0]).toBe('Property failed: expected 401, got 200');
  expect(shown).toContain('Shrunk counterexample: ["Bearer  x"]');
  expect(shown).toContain('FC_SEED=42 FC_PATH=6:0 npx mms-conformance run --grep "malformed \\"Authorization\\" is 401"');
  expect(withRerunCommand('expected 1, got 2', 't')).toBe('expected 1, got 2');
});

test('run.requestsByFamily sums each test\'s requests under the family of its first requirement tag, most first', () => {
  const withRequests = (tags: string[], requests: number) => outcome(tags, 'passed', { evidence: { requests, exchanges: [], checkFailures: [] } });
  const report = buildReport([
    withRequests(['@SCOPE-002'], 3), withRequests(['@SCOPE-004', '@AUTH-001'], 2), withRequests(['@slow', '@AUTH-001'], 4),
    withRequests(['@GEN', '@SPEC-002'], 6), withRequests([], 1),
  ], ctx);
  expect(report.run.requestsByFamily).toEqual([
    { family: 'GEN', tests: 1, requests: 6 }, { family: 'SCOPE', tests: 2, requests: 5 }, { family: 'AUTH', tests: 1, requests: 4 }, { family: '(none)', tests: 1, requests: 1 },
  ]);
  expect(report.run.requestsByFamily!.reduce((n, f) => n + f.requests, 0)).toBe(report.run.requests);
});

test('an inferred test never fails a must requirement, whatever its assertion names', () => {
  const catalog = loadCatalog();
  expect(catalog.byId.get('SPEC-001')?.level).toBe('must');
  expect(catalog.byId.get('SPEC-005')?.level).toBe('inferred');
  expect(withinLevel(['SPEC-001'], ['SPEC-005'], catalog), 'an inferred test naming SPEC-001').toEqual(['SPEC-005']);
  expect(withinLevel(['SPEC-001'], ['SPEC-001', 'SPEC-002'], catalog), 'a must test naming its own').toEqual(['SPEC-001']);
  expect(withinLevel(['PARTS-016'], ['PARTS-002'], catalog), 'a must test naming another must').toEqual(['PARTS-016']);
});
