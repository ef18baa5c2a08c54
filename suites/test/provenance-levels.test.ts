/**
 * The level of a verdict follows from provenance (contract/provenance.ts), mechanically: a generated
 * request breaking an inferred constraint, a universal check on an inferred keyword and a model step on
 * a transition the description does not describe can only fail inferred requirements; the same
 * machinery on a stated constraint fails a `must` one.
 */
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../contract/catalog.ts';
import { loadOperations, type Operation } from '../../contract/openapi.ts';
import { quoteProblems } from '../../contract/provenance-walk.ts';
import { NEGATIVE_REQUIREMENTS } from '../generative/case-provenance.ts';
import { negativeCases, type NegativeCase } from '../generative/negative-cases.ts';
import { RULES } from '../generative/model-rules.ts';
import { STATEFUL_REQUIREMENTS, TRANSITIONS, stepProvenance } from '../generative/model-provenance.ts';
import { failedRequirementsOf } from '../reporter/verdicts.ts';
import { schemaValid } from '../../contract/checks/schema-valid.ts';
import { documentedHeaders } from '../../contract/checks/documented-headers.ts';
import { statusDocumented } from '../../contract/checks/status-documented.ts';
import { requirementOf } from '../../contract/checks/types.ts';
import type { Exchange } from '../../contract/exchange.ts';
import type { PreparedRequest } from '../recipes/index.ts';

const op = (id: string): Operation => loadOperations().find((o) => o.operationId === id)!;
const levelOf = (id: string) => loadCatalog().byId.get(id)!.level;
const prepared = (method: string, path: string, json?: unknown): PreparedRequest => ({ method, path, expect: 0, options: json === undefined ? {} : { json } });
const find = (cases: NegativeCase[], input: RegExp) => {
  const c = cases.find((x) => input.test(x.input));
  expect(c, `a case ${input} among ${cases.map((x) => x.input).join('; ')}`).toBeDefined();
  return c!;
};

/** The requirements a failing negative test of `level` fails, as the reporter attributes them. */
const failedBy = (level: 'must' | 'inferred') => failedRequirementsOf([...NEGATIVE_REQUIREMENTS[level].refused], 'expected 400 validation_error, got 201');

test('a generated request breaking an x-inferred-keywords maxLength is an inferred case and fails only inferred requirements', () => {
  const c = find(negativeCases(op('createWorkOrder'), prepared('POST', '/work-orders', { title: 'Pump check' })), /^body \/title: maxLength/);
  expect(c.level).toBe('inferred');
  expect(c.provenance).toMatchObject({ level: 'inferred' });
  expect(c.provenance.level === 'inferred' && c.provenance.reason).toContain('x-inferred-keywords');
  const failed = failedBy(c.level);
  expect(failed.length).toBeGreaterThan(0);
  for (const id of failed) expect(levelOf(id), id).toBe('inferred');
  for (const id of NEGATIVE_REQUIREMENTS.inferred.unchanged) expect(levelOf(id), id).toBe('inferred');
});

test('a generated request breaking a constraint under an x-inferred node is an inferred case', () => {
  const c = find(negativeCases(op('createMeter'), prepared('POST', '/meters', { name: 'Runtime', asset_id: 'a1' })), /^body \/name: maxLength/);
  expect(c.level).toBe('inferred');
  expect(c.provenance.level === 'inferred' && c.provenance.reason).toContain('x-inferred');
});

test('a generated request breaking a stated bound is a must case, with the words it rests on, and fails a must requirement', () => {
  const cases = negativeCases(op('createWorkOrderExpense'), prepared('POST', '/work-orders/wo1/other-costs', { user_id: 'u1', type: 'labor', amount_minor: 5, description: 'parts run' }));
  const description = find(cases, /^body \/description: maxLength 5000/);
  expect(description.level).toBe('must');
  expect(description.provenance).toMatchObject({ level: 'stated', section: 'Work-order expenses' });
  expect(description.provenance.level === 'stated' && description.provenance.quote).toContain('maxLength 5000');
  expect(find(cases, /^body \/amount_minor: maximum/).level).toBe('must');
  expect(find(cases, /^body \/gen_unknown_member: additionalProperties/).level).toBe('must');
  expect(failedBy(description.level).map(levelOf)).toContain('must');
  for (const id of NEGATIVE_REQUIREMENTS.must.unchanged) expect(levelOf(id), id).toBe('must');
});

test('query parameters: a stated limit bound is must, an unstated minimum length of a filter inferred', () => {
  const cases = negativeCases(op('listMeters'), prepared('GET', '/meters', undefined));
  expect(find(cases, /^query limit: maximum 100/).level).toBe('must');
  const withFilter = negativeCases(op('listMeters'), { ...prepared('GET', '/meters'), options: { query: { asset_id: 'a1' } } });
  expect(find(withFilter, /^query asset_id: minLength/).level).toBe('inferred');
});

/** A 200 answer of getWorkOrder with `data` as given. */
function workOrderAnswer(data: Record<string, unknown>, meta: Record<string, unknown> = { request_id: 'r1', api_version: 'v1' }): Exchange {
  const json = { data, meta };
  return {
    method: 'GET', url: 'http://x/v1/work-orders/w1', path: '/work-orders/w1', operation: op('getWorkOrder'), requestHeaders: {}, status: 200,
    responseHeaders: { 'content-type': 'application/json' }, responseBody: JSON.stringify(json), json, durationMs: 1, authenticated: true, retries: [],
  } as Exchange;
}
const state = { requestIds: new Set<string>() };

test('the universal schema check cannot fail on an inferred keyword; on a stated one it fails its must requirement', () => {
  // No `id` (required: inferred), a numeric title (type: inferred), a priority outside the mock's set (enum: inferred).
  expect(schemaValid.run(workOrderAnswer({ title: 42, priority: 'urgent' }), state)).toEqual([]);
  const stated = schemaValid.run(workOrderAnswer({ id: 'w1', title: 't', priority: 'high' }, { request_id: 'r1', api_version: 'v2' }), state);
  expect(stated.length).toBeGreaterThan(0);
  expect(levelOf(schemaValid.requirement)).toBe('must');
  expect(levelOf(schemaValid.inferredRequirement!)).toBe('inferred');
});

test('the documented-headers check ignores an inferred value set and enforces the stated type', () => {
  const x = (limit: string) => ({ ...workOrderAnswer({ id: 'w1' }), responseHeaders: { 'x-request-id': 'r1', 'x-ratelimit-limit': limit, 'x-ratelimit-remaining': '5', 'x-ratelimit-reset': '1700000000' } });
  expect(documentedHeaders.run(x('50'), state)).toEqual([]);
  expect(documentedHeaders.run(x('many'), state).length).toBeGreaterThan(0);
});

test('an undocumented success status fails the inferred requirement only where the description gives no success status', () => {
  const answer = (id: string, path: string, status: number) => ({ ...workOrderAnswer({}), operation: op(id), path, status });
  const assets = answer('listAssets', '/assets', 203);
  const [inferred] = statusDocumented.run(assets, state);
  expect(inferred).toMatchObject({ provenance: { level: 'inferred' } });
  expect(requirementOf(statusDocumented, assets, inferred!)).toBe('SPEC-005');
  const meters = answer('listMeters', '/meters', 203);
  const [stated] = statusDocumented.run(meters, state);
  expect(stated, 'a finding on a stated route').toBeDefined();
  expect(typeof stated === 'string' ? undefined : stated!.provenance, 'no inferred provenance on a stated success').toBeUndefined();
  expect(requirementOf(statusDocumented, meters, stated!)).toBe('SPEC-001');
  expect(levelOf('SPEC-001')).toBe('must');
  expect(levelOf('SPEC-005')).toBe('inferred');
});

test('every modelled transition has provenance; its words are verbatim; the stateful run fails inferred requirements only', () => {
  const keys = Object.entries(RULES).flatMap(([id, rule]) => (rule.kinds ?? [undefined]).map((k) => (k ? `${id}:${k}` : id)));
  expect(keys.filter((k) => TRANSITIONS[k] === undefined)).toEqual([]);
  const sources = Object.entries(TRANSITIONS).flatMap(([k, t]) => (typeof t === 'string' ? [] : [{ ...t, where: k }]));
  expect(sources.length).toBeGreaterThan(5);
  expect(quoteProblems(sources)).toEqual([]);
  for (const id of STATEFUL_REQUIREMENTS) expect(levelOf(id), id).toBe('inferred');
  expect(stepProvenance(op('deleteWorkOrder'), 'deleteWorkOrder')).toMatchObject({ level: 'stated', section: 'States and transitions' });
  expect(stepProvenance(op('createWorkRequest'), 'createWorkRequest').level).toBe('inferred');
  expect(stepProvenance(op('commandWorkOrderParts'), 'commandWorkOrderParts:reuse-key').level).toBe('inferred');
});
