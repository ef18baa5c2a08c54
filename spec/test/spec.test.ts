/** The spec, the catalog and the profile schema hold together (issue 2 §2–3). */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { loadOpenApi, loadOperations, loadScopes, MODULES } from '../../contract/openapi.ts';
import { loadCatalog } from '../../contract/catalog.ts';
import { profileProblems } from '../../contract/profile.ts';
import { compileRequestValidators } from '../../contract/validators.ts';
import { compileResponseValidators } from '../../contract/response-validators.ts';

test('the spec is OpenAPI 3.1, document version 1.0, under /v1', () => {
  const doc = loadOpenApi() as unknown as { openapi: string; info: { version: string }; servers: Array<{ url: string }>; jsonSchemaDialect: string };
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.info.version).toBe('1.0');
  expect(doc.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  for (const s of doc.servers) expect(s.url).toMatch(/\/v1$/);
});

test('every operation the description names is described', () => {
  const ids = new Set(loadOperations().map((o) => `${o.method} ${o.path}`));
  const named = [
    'GET /customfields/{entity}', 'POST /customfields/{entity}', 'PATCH /customfields/{entity}/{id}', 'DELETE /customfields/{entity}/{id}',
    'GET /meters', 'POST /meters', 'GET /meters/{id}', 'PATCH /meters/{id}', 'DELETE /meters/{id}', 'GET /meters/{id}/readings', 'POST /meters/{id}/readings',
    'GET /work-orders', 'POST /work-orders', 'GET /work-orders/{id}', 'PATCH /work-orders/{id}', 'DELETE /work-orders/{id}', 'POST /workorders',
    'GET /work-orders/{id}/other-costs', 'POST /work-orders/{id}/other-costs', 'DELETE /work-orders/{id}/other-costs/{costId}',
    'GET /work-orders/{id}/parts', 'POST /work-orders/{id}/parts', 'GET /workrequests', 'GET /workrequestportals', 'GET /assets',
  ];
  for (const n of named) expect(ids, n).toContain(n);
  expect([...ids].filter((i) => i.includes('/assets/{id}/parts/{partId}'))).toHaveLength(2);
  expect(loadOperations().length).toBeGreaterThanOrEqual(55);
});

test('every operation needs exactly one declared scope; modules are the four', () => {
  const scopes = loadScopes();
  expect(scopes).toHaveLength(18);
  for (const op of loadOperations()) {
    expect(scopes, op.operationId).toContain(op.scope);
    if (op.module) expect(MODULES).toContain(op.module);
  }
});

test('operations whose route the description does not show are marked inferred; the named ones are not', () => {
  const inferred = loadOperations().filter((o) => o.inferred).map((o) => o.operationId);
  for (const id of ['createAsset', 'getLocation', 'resolveIdentifier', 'createWorkRequest', 'linkAssetPart']) expect(inferred).toContain(id);
  for (const id of ['listMeters', 'createWorkOrder', 'listAssets', 'commandWorkOrderParts', 'updateCustomField']) expect(inferred).not.toContain(id);
});

test('every error response is problem details with X-Request-ID; every success has the rate-limit headers', () => {
  for (const op of loadOperations()) {
    for (const r of op.responses) {
      expect(Object.keys(r.headers), `${op.operationId} ${r.status}`).toContain('x-request-id');
      if (r.status >= 400) expect(r.mediaType, `${op.operationId} ${r.status}`).toBe('application/problem+json');
      else for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(Object.keys(r.headers), `${op.operationId} ${r.status}`).toContain(h);
      if (r.status === 429) expect(Object.keys(r.headers)).toContain('retry-after');
    }
    for (const s of [401, 403, 429]) expect(op.responses.map((r) => r.status), op.operationId).toContain(s);
  }
});

test('validators compile in both views and enforce stated bounds', () => {
  const requests = compileRequestValidators('full');
  const expense = requests.get('createWorkOrderExpense')!;
  expect(expense.validateBody!({ user_id: 'u', type: 'labor', amount_minor: 0 })).toEqual([]);
  expect(expense.validateBody!({ user_id: 'u', type: 'labor', amount_minor: 2147483648 })).not.toEqual([]);
  expect(expense.validateBody!({ user_id: 'u', type: 'labor', amount_minor: 1, extra: true })).not.toEqual([]);
  const responses = compileResponseValidators('stated');
  const parts = responses.get('getWorkOrderParts')!.get(200)!;
  expect(parts.validateBody!({})).not.toEqual([]);
  // Stated view: inferred enums are not enforced (a meter_type the description never lists is fine).
  const meter = responses.get('getMeter')!.get(200)!;
  expect(meter.validateBody!({ data: { id: 'm', name: 'n', meter_type: 'odometer-x' }, meta: { request_id: 'r', api_version: 'v1' } })).toEqual([]);
  expect(meter.validateBody!({ data: { id: 'm', name: 'n' }, meta: { request_id: 'r', api_version: 'v2' } })).not.toEqual([]);
});

test('the catalog loads, covers every family, and holds well over 150 requirements', () => {
  const catalog = loadCatalog();
  expect(catalog.requirements.length).toBeGreaterThan(150);
  for (const family of Object.keys(catalog.families)) expect(catalog.requirements.some((r) => r.family === family), family).toBe(true);
  for (const r of catalog.requirements.filter((x) => !x.testable)) expect(r.reason, r.id).toBeTruthy();
});

test('the embedded mock profile satisfies the target-profile schema; broken profiles do not', () => {
  const profile = JSON.parse(readFileSync('fixtures/targets/mock.json', 'utf8'));
  expect(profileProblems(profile)).toEqual([]);
  expect(profileProblems({ ...profile, baseUrl: 'http://x/api' })).not.toEqual([]);
  expect(profileProblems({ ...profile, keys: {} })).not.toEqual([]);
  expect(profileProblems({ ...profile, surprise: 1 })).not.toEqual([]);
});

test('a profile problem names the member at fault: an unknown member, a refused member name', () => {
  const profile = JSON.parse(readFileSync('fixtures/targets/mock.json', 'utf8'));
  expect(profileProblems({ ...profile, surprise: 1 })).toEqual(['(root) must NOT have additional property "surprise"']);
  const problems = profileProblems({ ...profile, keys: { ...profile.keys, scopes: { ...profile.keys.scopes, bogus: 'env:X' }, extra: 'env:X' } });
  expect(problems).toContain('/keys must NOT have additional property "extra"');
  expect(problems.filter((p) => p.includes('"bogus"'))).toEqual([expect.stringMatching(/^\/keys\/scopes property name "bogus" must match pattern/)]);
});
