/**
 * Problem details (Errors): every error of every family is `application/problem+json` with `type`
 * (`{errors_url}/<code>`), `title`, `status`, `detail`, `request_id` and `code`; validation failures and
 * malformed JSON are 400 `validation_error`. The universal checks prove these on every response; ERR-001
 * to ERR-005 prove them explicitly on one shared set of error samples (suites/lib/sample-sets.ts): an
 * error of every stated operation and of every cross-cutting kind, made once by the first of the five
 * tests (they run in order in one worker) and judged by each for its own rule only.
 */
import { test, expect } from '../fixtures.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { notAssessed } from '../lib/needs.ts';
import { createMeter } from '../kits/meters.ts';
import { rotatingShare } from '../lib/operations.ts';
import { crossCuttingErrors, operationErrors, refusedWritesWorkOrder, type SampleContext } from '../lib/sample-sets.ts';
import type { ApiResponse } from '../lib/client.ts';
import type { Answered, Problem, WorkRequestList } from '../lib/api-types.ts';

/**
 * The shared error samples that are errors (a sample the target answered with a success is another
 * requirement's business, never judged here); at least one must be.
 */
async function errorSamples(ctx: SampleContext): Promise<ApiResponse<Answered<Problem>>[]> {
  const samples = [...(await operationErrors(ctx)), ...(await crossCuttingErrors(ctx))];
  const errors = samples.filter((r) => r.status >= 400);
  expect(errors.length, 'error samples').toBeGreaterThan(0);
  // Error answers: what the problem-details rules read (each member possibly absent, judged here).
  return errors as ApiResponse<Answered<Problem>>[];
}

/** The id of a work order for refused writes (shared), or not assessed when none could be made. */
async function workOrderForRefusedWrites(ctx: SampleContext): Promise<string> {
  const { id, created } = await refusedWritesWorkOrder(ctx);
  expect(id, `a work order to write to: ${created.status} ${created.text.slice(0, 200)}`).toBeDefined();
  return id!;
}

const where = (r: ApiResponse) => `${r.status} to ${r.exchange.method} ${r.exchange.path}`;

test.describe('problem details', () => {
  test.describe('on the shared error samples', () => {
    // In order, in one worker: the first test makes the samples, the four after it judge the same ones.
    test.describe.configure({ mode: 'default' });

    test('every error has content type application/problem+json', { tag: ['@ERR-001'] }, async ({ api, as, profile }) => {
      for (const r of await errorSamples({ api, as, profile })) {
        expect.soft(r.headers['content-type'] ?? '', where(r)).toMatch(/^application\/problem\+json(;|$)/);
      }
    });

    test('every problem has string type, title, detail, request_id and code, and an integer status', { tag: ['@ERR-002'] }, async ({ api, as, profile }) => {
      for (const r of await errorSamples({ api, as, profile })) {
        for (const field of ['type', 'title', 'detail', 'request_id', 'code'] as const) expect.soft(typeof r.body?.[field], `${where(r)}: ${field}`).toBe('string');
        expect.soft(Number.isInteger(r.body?.status), `${where(r)}: status is an integer`).toBe(true);
      }
    });

    test('type is {errors_url}/<code>', { tag: ['@ERR-003'] }, async ({ api, as, profile }) => {
      for (const r of await errorSamples({ api, as, profile })) {
        expect.soft(String(r.body?.type), where(r)).toMatch(new RegExp(`/${String(r.body?.code)}$`));
      }
    });

    test('status equals the HTTP status', { tag: ['@ERR-004'] }, async ({ api, as, profile }) => {
      for (const r of await errorSamples({ api, as, profile })) expect.soft(r.body?.status, where(r)).toBe(r.status);
    });

    test('every type shares one {errors_url}', { tag: ['@ERR-005'] }, async ({ api, as, profile }) => {
      const samples = await errorSamples({ api, as, profile });
      const prefixes = new Set(samples.map((r) => String(r.body?.type).slice(0, -String(r.body?.code).length - 1)));
      expect([...prefixes], 'errors_url prefixes').toHaveLength(1);
      expect([...prefixes][0]).toMatch(/^https?:\/\/\S+$/);
    });
  });

  test('query, JSON field and path field validation failures answer 400 validation_error', { tag: ['@ERR-006'] }, async ({ api, as, profile }) => {
    const wo = { id: await workOrderForRefusedWrites({ api, as, profile }) };
    expectProblem(await api.get('/meters', { query: { limit: 0 } }), 400, 'validation_error');
    expectProblem(await api.get('/work-orders', { query: { direction: 'sideways' } }), 400, 'validation_error');
    expectProblem(await api.get('/workrequests', { query: { limit: 'abc' } }), 400, 'validation_error');
    expectProblem(await api.post('/work-orders', { json: { title: 42 } }), 400, 'validation_error');
    expectProblem(await api.patch(`/work-orders/${wo.id}`, { json: { priority: ['high'] } }), 400, 'validation_error');
    expectProblem(await api.post(`/work-orders/${wo.id}/other-costs`, { json: { user_id: '', type: 'labor', amount_minor: 100 } }), 400, 'validation_error');
    expectProblem(await api.patch('/customfields/assets/0', { json: { field: { required: true } } }), 400, 'validation_error');
    expectProblem(await api.delete('/customfields/workOrders/not-an-id'), 400, 'validation_error');
  });

  test('a write whose body is not well-formed JSON answers 400 validation_error', { tag: ['@ERR-007'] }, async ({ api, as, profile }) => {
    const wo = { id: await workOrderForRefusedWrites({ api, as, profile }) };
    const json = { 'content-type': 'application/json' };
    const writes: Array<[string, string]> = [['POST', '/work-orders'], ['PATCH', `/work-orders/${wo.id}`], ['POST', `/work-orders/${wo.id}/other-costs`], ['POST', '/workorders'], ['POST', '/meters']];
    const malformed = ['{"title": "x"', "{'title': 'x'}", 'not json', '[1, 2'];
    // Each write gets two of the malformed bodies, in turn: every body still reaches two or three writes
    // of three families, both wire styles (the rule is one for every write, Errors).
    for (const [i, [method, path]] of writes.entries()) {
      for (const body of rotatingShare(malformed, i, 2)) {
        expectProblem(await api.send(method, path, { body, headers: json }), 400, 'validation_error');
      }
    }
  });
});

test.describe('problem details (inferred)', () => {
  test('codes the description does not show: not_found, conflict, payload_too_large, unsupported_media_type', { tag: ['@ERR-008'] }, async ({ api, as, profile }) => {
    // The unknown-id reads of the shared error samples (GET /meters/{id}, GET /work-orders/{id}).
    for (const unknown of await operationErrors({ api, as, profile }, ['getMeter', 'getWorkOrder'])) expectProblem(unknown, 404, 'not_found');
    const meter = await createMeter(api, profile);
    expect((await api.delete(`/meters/${meter.id}`)).status).toBe(204);
    const onArchived = await api.post(`/meters/${meter.id}/readings`, { json: { value: 1 } });
    if (onArchived.status !== 409) notAssessed(`a reading on an archived meter answered ${onArchived.status}, not 409 (inferred, READ-008)`);
    expectProblem(onArchived, 409, 'conflict');
    expectProblem(await api.post('/work-orders', { body: '{"title": "x"}', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
    const request = (await api.get<WorkRequestList>('/workrequests', { query: { limit: 1 } })).body.workRequests[0];
    if (!request) notAssessed('the organization has no work request to upload to');
    const upload = await api.post(`/workrequests/${request.id}/attachments`, {
      query: { fileName: 'large.bin' }, body: Buffer.alloc(1024 * 1024 + 1, 7), headers: { 'content-type': 'application/octet-stream' },
    });
    expectProblem(upload, 413, 'payload_too_large');
  });

  test('a validation_error names each failing field in errors', { tag: ['@ERR-009'] }, async ({ api }) => {
    const query = await api.get<Problem>('/meters', { query: { limit: 0, direction: 'up' } });
    expectProblem(query, 400, 'validation_error');
    expect(query.body.errors, 'query errors').toEqual(expect.arrayContaining([
      expect.objectContaining({ in: 'query', name: 'limit', message: expect.any(String) }),
      expect.objectContaining({ in: 'query', name: 'direction', message: expect.any(String) }),
    ]));
    const body = await api.post<Problem>('/work-orders', { json: { title: 42, priority: ['high'] } });
    expectProblem(body, 400, 'validation_error');
    expect(body.body.errors, 'body errors').toEqual(expect.arrayContaining([
      expect.objectContaining({ in: 'body', pointer: '/title', message: expect.any(String) }),
      expect.objectContaining({ in: 'body', pointer: '/priority', message: expect.any(String) }),
    ]));
  });

  test('a JSON write sent with another Content-Type answers 415', { tag: ['@ERR-010'] }, async ({ api, as, profile }) => {
    const wo = { id: await workOrderForRefusedWrites({ api, as, profile }) };
    const body = JSON.stringify({ title: 'CT wrong media type' });
    // Each write gets two of the three media types, in turn: every type reaches a create or an update.
    const types = ['text/plain', 'application/x-www-form-urlencoded', 'application/xml'];
    for (const type of rotatingShare(types, 0, 2)) expectProblem(await api.post('/work-orders', { body, headers: { 'content-type': type } }), 415);
    for (const type of rotatingShare(types, 1, 2)) expectProblem(await api.patch(`/work-orders/${wo.id}`, { body, headers: { 'content-type': type } }), 415);
  });
});
