/**
 * Root causes (suites/reporter/root-causes.ts, docs/design.md §6): one deviation repeated at `/items/0`
 * and `/items/1`, on several statuses and across operations, is one root cause; the failing assertions
 * that saw it join it; two deviations stay two.
 */
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../contract/catalog.ts';
import { buildReport } from '../reporter/verdicts.ts';
import type { TestOutcome } from '../../contract/report/model.ts';
import type { EvidenceRecord } from '../../contract/exchange.ts';
import { statusDocumented } from '../../contract/checks/status-documented.ts';
import { requestIdOnError, requestIdOnSuccess } from '../../contract/checks/request-id.ts';
import { documentedHeaders } from '../../contract/checks/documented-headers.ts';
import { operationFor } from '../../contract/spec-index.ts';
import type { Exchange } from '../../contract/exchange.ts';
import { comparedOf, rerunCommand, ruleOfCheck, withoutIndices } from '../reporter/root-causes.ts';

const catalog = loadCatalog();
const ctx = { catalog, tool: { name: 't', version: '0' }, target: { name: 'x', baseUrl: 'http://x/v1', embedded: false }, spec: { title: 's', version: '1.0' }, startedAt: new Date(0), finishedAt: new Date(1000), shard: null };
const passing = (): TestOutcome[] => catalog.requirements.filter((r) => r.testable).map((r) => ({ id: r.id, title: `proves ${r.id}`, file: 'f', line: 1, project: 'p', tags: [`@${r.id}`], status: 'passed', durationMs: 1, errors: [] }));

/** An exchange of `method path` answered `status`, as the client records it (operation resolved). */
function answered(method: string, path: string, status: number, headers: Record<string, string> = {}): Exchange {
  const rate: Record<string, string> = status < 300 ? { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999', 'x-ratelimit-reset': '1800000000' } : {};
  return { method, url: `http://x/v1${path}`, path, operation: operationFor(method, path), requestHeaders: {}, status, responseHeaders: { 'content-type': 'application/json', ...rate, ...headers }, responseBody: '{}', durationMs: 1, authenticated: true, retries: [] };
}

/** The evidence of one exchange judged by real checks, as the client records their findings. */
function judged(x: Exchange, checks = [statusDocumented, requestIdOnSuccess, requestIdOnError, documentedHeaders]): EvidenceRecord {
  const checkFailures: EvidenceRecord['checkFailures'] = [];
  for (const check of checks) {
    for (const found of check.run(x, { requestIds: new Set() })) {
      const f = typeof found === 'string' ? { message: found } : found;
      checkFailures.push({ check: check.name, requirement: check.requirement, message: f.message, operationId: x.operation?.operationId, status: x.status, ...(f.at ? { at: f.at } : {}), ...(f.rule ? { rule: f.rule } : {}), exchange: 0 });
    }
  }
  const { operation, json: _json, ...kept } = x;
  return { requests: 1, exchanges: [{ ...kept, operationId: operation?.operationId }], checkFailures, failedExchange: 0 };
}

const withEvidence = (outcomes: TestOutcome[], byId: Record<string, Partial<TestOutcome>>) => outcomes.map((o) => (byId[o.id] ? { ...o, ...byId[o.id] } : o));

test('X-Request-ID absent on successes and errors of several operations is one root cause failing REQID-001, REQID-002 and SPEC-006', () => {
  const outcomes = withEvidence(passing(), {
    'METER-004': { evidence: judged(answered('GET', '/meters', 200)) },
    'WO-003': { evidence: judged(answered('GET', '/work-orders/wo_1', 200)) },
    'METER-006': { evidence: judged(answered('GET', '/meters/mtr_x', 404)) },
  });
  const report = buildReport(outcomes, ctx);
  expect(report.rootCauses).toHaveLength(1);
  const [cause] = report.rootCauses;
  expect(cause).toMatchObject({ rule: 'header x-request-id absent', level: 'must', kind: 'check' });
  expect(cause!.requirements).toEqual(expect.arrayContaining(['REQID-001', 'REQID-002', 'SPEC-006']));
  expect(cause!.where!.map((w) => `${w.operationId} ${w.status}`)).toEqual(expect.arrayContaining(['listMeters 200', 'getWorkOrder 200', 'getMeter 404']));
  expect(cause!.reproduce!.command).toMatch(/^npx mms-conformance run --grep 'proves [A-Z]+-\d{3}'$/);
  for (const id of ['METER-004', 'WO-003', 'METER-006']) expect(report.requirements.find((r) => r.id === id)!.verdict, `${id} is not failed by a check of its test's exchange`).toBe('passed');
});

test('201 answered 200 on every create: statusDocumented and the tests asserting 201 are one root cause', () => {
  const failedCreate = (x: Exchange): Partial<TestOutcome> => ({ status: 'failed', errors: ['Error: the meter is created\n\nexpect(received).toBe(expected) // Object.is equality\n\nExpected: 201\nReceived: 200'], evidence: judged(x, [statusDocumented]) });
  const outcomes = withEvidence(passing(), {
    'METER-002': failedCreate(answered('POST', '/meters', 200)),
    'WO-002': failedCreate(answered('POST', '/work-orders', 200)),
    'METER-004': { evidence: judged(answered('POST', '/meters/mtr_1/readings', 200), [statusDocumented]) },
  });
  const report = buildReport(outcomes, ctx);
  expect(report.rootCauses.map((c) => c.rule)).toEqual(['answers 200 instead of 201']);
  expect(report.rootCauses[0]!.requirements).toEqual(expect.arrayContaining(['SPEC-001', 'METER-002', 'WO-002']));
  expect(report.requirements.filter((r) => r.verdict === 'failed').map((r) => r.id).sort()).toEqual(['METER-002', 'SPEC-001', 'WO-002']);
});

test('an error status remapped everywhere is one root cause: the assertions expecting 409 and the undocumented 400 the check saw', () => {
  const conflict = (x: Exchange): Partial<TestOutcome> => ({ status: 'failed', errors: [`Error: ${x.method} ${x.path}: expected 409, got 400\n\nexpect(received).toBe(expected) // Object.is equality\n\nExpected: 409\nReceived: 400`], evidence: judged(x, [statusDocumented]) });
  const outcomes = withEvidence(passing(), {
    'METER-011': conflict(answered('DELETE', '/meters/mtr_1', 400)),
    'WO-018': conflict(answered('POST', '/work-orders', 400)),
  });
  const report = buildReport(outcomes, ctx);
  expect(report.rootCauses).toHaveLength(1);
  expect(report.rootCauses[0]!.requirements).toEqual(expect.arrayContaining(['METER-011', 'WO-018', 'SPEC-001']));
});

test('two deviations stay two root causes, and an unrelated assertion is its own', () => {
  const outcomes = withEvidence(passing(), {
    'METER-004': { evidence: judged(answered('GET', '/meters', 200)) },
    'METER-011': { status: 'failed', errors: ['Error: DELETE /meters/mtr_1: expected 409 resource_in_use, got 204'], evidence: judged(answered('DELETE', '/meters/mtr_1', 204)) },
  });
  const report = buildReport(outcomes, ctx);
  expect(report.rootCauses.map((c) => c.rule)).toEqual(['header x-request-id absent', 'Error: DELETE /meters/mtr_1: expected 409 resource_in_use, got 204']);
  expect(report.rootCauses[1]).toMatchObject({ kind: 'assertion', requirements: ['METER-011'] });
});

test('rules leave out where: array indices, operation and status', () => {
  expect(withoutIndices('/items/0/unitCost')).toBe('/items/unitCost');
  expect(withoutIndices('/data/12')).toBe('/data');
  expect(ruleOfCheck({ check: 'schemaValid', message: 'listMeters 200 body: /data/3/is_active must be boolean', operationId: 'listMeters', status: 200 })).toBe('schemaValid: … … body: /data/is_active must be boolean');
  expect(ruleOfCheck({ check: 'x', message: 'm', rule: 'the rule' })).toBe('the rule');
  expect(comparedOf('Error: m\n\nExpected: 201\nReceived: 200')).toEqual({ expected: '201', received: '200' });
  expect(rerunCommand("a (b) it's")).toBe(`npx mms-conformance run --grep 'a \\(b\\) it'\\''s'`);
});

test("a model's `toContain` of the one allowed status is the same status rule as a `toBe`", () => {
  const model = 'Got error: the model allows 409 — answered 400\n\nexpect(received).toContain(expected) // indexOf\n\nExpected value: 400\nReceived array: [409]';
  const outcomes = withEvidence(passing(), {
    'METER-011': { status: 'failed', errors: ['Error: m\n\nExpected: 409\nReceived: 400'], evidence: judged(answered('DELETE', '/meters/mtr_1', 400), [statusDocumented]) },
    'GEN-005': { status: 'failed', errors: [model] },
  });
  const report = buildReport(outcomes, ctx);
  expect(report.rootCauses.map((c) => c.rule)).toEqual(['answers 400 instead of 409']);
});

test('two checks finding fault with the same field of the same response are one root cause', () => {
  const x = answered('GET', '/meters/mtr_x', 404);
  const { operation, json: _json, ...kept } = x;
  const evidence: EvidenceRecord = { requests: 1, exchanges: [{ ...kept, operationId: operation?.operationId }], checkFailures: [
    { check: 'problemStatusMatches', requirement: 'ERR-004', message: 'problem status 400 differs from the HTTP status 404', operationId: 'getMeter', status: 404, at: '/status', rule: 'problem status differs from the HTTP status', exchange: 0 },
    { check: 'schemaValid', requirement: 'SPEC-002', message: 'getMeter 404 body: /status must be equal to constant', operationId: 'getMeter', status: 404, at: '/status', rule: 'body /status must be equal to constant', exchange: 0 },
  ] };
  const report = buildReport(withEvidence(passing(), { 'METER-006': { evidence } }), ctx);
  expect(report.rootCauses).toHaveLength(1);
  expect(report.rootCauses[0]!.requirements).toEqual(['ERR-004', 'SPEC-002']);
  expect(report.rootCauses[0]!.where).toEqual([{ operationId: 'getMeter', status: 404, at: '/status', exchanges: 1 }]);
});
