/**
 * Authentication (Authentication 1–5; Errors, the four 401 codes): every request carries
 * `Authorization: Bearer <API_KEY>`; each way of getting it wrong has its own code.
 */
import { test, expect } from '../kits/meters.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { expectSucceeded } from '../lib/expect-success.ts';
import { need } from '../lib/needs.ts';
import { operations, placeholderPath } from '../lib/operations.ts';
import { concurrently } from '../lib/concurrently.ts';
import type { MeterEnvelope, MeterReadingEnvelope, MeterReadingList } from '../lib/api-types.ts';

const UNKNOWN_KEY = 'sk_live_Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp';

test.describe('authentication', () => {
  test('every operation answers 401 missing_authorization without the header', { tag: ['@AUTH-001'] }, async ({ as }) => {
    const anonymous = as.anonymous();
    const answers = await concurrently(operations.filter((o) => !o.inferred), (op) => anonymous.send(op.method, placeholderPath(op), op.requestBody ? { json: {} } : {}));
    for (const r of answers) expectProblem(r, 401, 'missing_authorization');
  });

  test('every inferred operation answers 401 missing_authorization without the header, before looking up its ids', { tag: ['@AUTH-015'] }, async ({ as }) => {
    const anonymous = as.anonymous();
    const answers = await concurrently(operations.filter((o) => o.inferred), (op) => anonymous.send(op.method, placeholderPath(op), op.requestBody ? { json: {} } : {}));
    for (const r of answers) expectProblem(r, 401, 'missing_authorization');
  });

  test('a scheme other than Bearer answers 401 invalid_authorization_format', { tag: ['@AUTH-002'] }, async ({ as, profile }) => {
    const key = profile.keys.live[0]!;
    // Not `bearer`: schemes are case-insensitive (RFC 9110 §11.1); a service may accept it.
    for (const header of ['Basic dXNlcjpwYXNzd29yZA==', `Token ${key}`, `Bearer:${key}`, key]) {
      expectProblem(await as.header(header).get('/meters'), 401, 'invalid_authorization_format');
    }
  });

  test('Bearer without exactly one token answers 401 invalid_authorization_format', { tag: ['@AUTH-003'] }, async ({ as, profile }) => {
    const key = profile.keys.live[0]!;
    // Not `Bearer  <key>`: RFC 9110 §11.4 allows several spaces before the credentials.
    for (const header of ['Bearer', 'Bearer ', `Bearer ${key} ${key}`]) {
      expectProblem(await as.header(header).get('/meters'), 401, 'invalid_authorization_format');
    }
  });

  test('a token with another prefix answers 401 invalid_api_key_format', { tag: ['@AUTH-004'] }, async ({ as }) => {
    for (const token of ['pk_live_4eC39HqLyjWDarjtT1zdp7dc', 'sk_prod_4eC39HqLyjWDarjtT1zdp7dc', 'rk_test_4eC39HqLyjWDarjtT1zdp7dc', 'api_4eC39HqLyjWDarjtT1zdp7dc', 'SK_LIVE_4eC39HqLyjWDarjtT1zdp7dc']) {
      expectProblem(await as.header(`Bearer ${token}`).get('/meters'), 401, 'invalid_api_key_format');
    }
  });

  test('a prefix with no secret answers 401 invalid_api_key_format', { tag: ['@AUTH-005'] }, async ({ as }) => {
    for (const token of ['sk_live_', 'sk_test_']) expectProblem(await as.header(`Bearer ${token}`).get('/meters'), 401, 'invalid_api_key_format');
  });

  test('other key shapes answer 401 invalid_api_key_format', { tag: ['@AUTH-006'] }, async ({ as }) => {
    for (const token of ['sk_live_short', `sk_live_${'a'.repeat(23)}`, `sk_test_${'a'.repeat(65)}`, 'sk_live_!!!!!!!!!!!!!!!!!!!!!!!!!!!!', 'sk_live_abcdefghijklmnopqrstuvwxyz-_']) {
      expectProblem(await as.header(`Bearer ${token}`).get('/meters'), 401, 'invalid_api_key_format');
    }
  });

  test('a well-formed unknown key answers 401 invalid_api_key', { tag: ['@AUTH-007'] }, async ({ as }) => {
    expectProblem(await as.header(`Bearer ${UNKNOWN_KEY}`).get('/meters'), 401, 'invalid_api_key');
    expectProblem(await as.header(`Bearer ${UNKNOWN_KEY.replace('live', 'test')}`).post('/meters', { json: {} }), 401, 'invalid_api_key');
  });

  test('a revoked key answers 401 invalid_api_key', { tag: ['@AUTH-008'] }, async ({ as }) => {
    const revoked = as.role('keys.revoked');
    expectProblem(await revoked.get('/meters'), 401, 'invalid_api_key');
    expectProblem(await revoked.get('/work-orders'), 401, 'invalid_api_key');
    expectProblem(await revoked.post('/meters', { json: {} }), 401, 'invalid_api_key');
  });

  test('an expired key answers 401 invalid_api_key', { tag: ['@AUTH-009'] }, async ({ as }) => {
    expectProblem(await as.role('keys.expired').get('/meters'), 401, 'invalid_api_key');
  });

  test('live and test keys reach the same organization data', { tag: ['@AUTH-010'] }, async ({ api, as, meters }) => {
    const test = as.test();
    const meter = await meters.create();
    const viaTest = await test.get<MeterEnvelope>(`/meters/${meter.id}`);
    expect(viaTest.status).toBe(200);
    expect(viaTest.body.data).toMatchObject({ id: meter.id, name: meter.name });
    const reading = await test.post<MeterReadingEnvelope>(`/meters/${meter.id}/readings`, { json: { value: 42 } });
    expectSucceeded(reading);
    const viaLive = await api.get<MeterReadingList>(`/meters/${meter.id}/readings`);
    expect(viaLive.body.data.map((r: { id: string }) => r.id)).toContain(reading.body.data.id);
  });

  test('authentication comes before every other check', { tag: ['@AUTH-015'] }, async ({ as }) => {
    const unknown = as.header(`Bearer ${UNKNOWN_KEY}`);
    expectProblem(await unknown.get('/meters', { query: { limit: 1000, direction: 'sideways' } }), 401, 'invalid_api_key');
    expectProblem(await unknown.get('/no-such-route'), 401, 'invalid_api_key');
    expectProblem(await as.anonymous().post('/meters', { body: '{not json', headers: { 'content-type': 'application/json' } }), 401, 'missing_authorization');
  });

  test('revoked and expired keys stay refused on writes', { tag: ['@AUTH-008', '@AUTH-009'] }, async ({ as, profile }) => {
    need(profile, 'keys.expired');
    expectProblem(await as.role('keys.expired').patch('/meters/mtr_any', { json: { name: 'x' } }), 401, 'invalid_api_key');
    expectProblem(await as.role('keys.revoked').delete('/meters/mtr_any'), 401, 'invalid_api_key');
  });
});
