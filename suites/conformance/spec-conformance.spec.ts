/**
 * Conformance to the OpenAPI description (Endpoints; Resources and their fields; Errors; Limits): the
 * universal checks judge every response; these tests prove the same rules explicitly — content types,
 * documented headers (the rate-limit headers on every success among them), and no 5xx for malformed
 * requests. Each operation's statuses and bodies (its valid and unknown-id requests, SPEC-001 and
 * SPEC-002) are operations-requests.spec.ts's, judged from the valid request that file prepares once.
 * The universal checks record their own requirements on every sample; each test fails only its own.
 */
import { test, expect } from '../fixtures.ts';
import { expectSucceeded } from '../lib/expect-success.ts';
import { namesRecord, operations, rotatingShare } from '../lib/operations.ts';
import { responseValidator } from '../../contract/spec-index.ts';
import { compatSamples, listSamples, meterSamples, missingAuthorization, named, operationErrors, refusedWritesWorkOrder, workOrderSamples, type SampleContext } from '../lib/sample-sets.ts';
import type { ApiResponse, RequestOptions } from '../lib/client.ts';
import type { Answered, MeterEnvelope } from '../lib/api-types.ts';
import { RECIPES } from '../recipes/index.ts';
import { concurrently } from '../lib/concurrently.ts';
import type { Operation } from '../../contract/openapi.ts';

const where = (r: ApiResponse) => `${r.status} to ${r.exchange.method} ${r.exchange.path}`;

/** The operation's path with `id` as its first id parameter (raw, not encoded), `assets` as `{entity}`, placeholders elsewhere. */
function withFirstId(op: Operation, id: string): string {
  let first = true;
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'entity') return 'assets';
    if (!first) return `ct_unknown_${name}`;
    first = false;
    return id;
  });
}

/**
 * The path of a body operation on a shared record, when it writes to a work order (the shared work order
 * for refused writes) or a meter (the shared meter sample): undefined for other operations, or when the
 * record could not be made.
 */
async function sharedRecordPath(ctx: SampleContext, op: Operation): Promise<string | undefined> {
  if (op.path.startsWith('/work-orders/{')) {
    const { id } = await refusedWritesWorkOrder(ctx);
    return id === undefined ? undefined : withFirstId(op, id);
  }
  if (op.path.startsWith('/meters/{')) {
    const id = ((await meterSamples(ctx)).meter as ApiResponse<Answered<MeterEnvelope>> | undefined)?.body?.data?.id;
    return typeof id === 'string' ? withFirstId(op, id) : undefined;
  }
  return undefined;
}

test.describe('the OpenAPI description', () => {
  test('successes with a body are application/json, 204 has no body', { tag: ['@SPEC-003'] }, async ({ api, as, profile }) => {
    const ctx = { api, as, profile };
    const workOrder = await workOrderSamples(ctx);
    const bodies = [
      ...named(await listSamples(ctx), ['meters']),
      ...Object.values(await meterSamples(ctx)).filter((r) => r !== undefined),
      ...named(workOrder, ['read', 'parts', 'otherCosts']),
      ...Object.values(await compatSamples(ctx)).filter((r) => r !== undefined),
    ];
    for (const r of bodies) {
      expect(r.status, where(r)).toBeLessThan(300);
      expect(r.headers['content-type'] ?? '', where(r)).toMatch(/^application\/json(;|$)/);
    }
    const [deleted] = named(workOrder, ['deleted']);
    expect(deleted!.status).toBe(204);
    expect(deleted!.text, '204 has no body').toBe('');
  });

  test('malformed requests never get a 5xx', { tag: ['@SPEC-004'] }, async ({ api, as, profile }) => {
    const sample = api;
    const stated = operations.filter((o) => !o.inferred);
    const ids = ['%', '%00', '%E0%A4%A', 'x'.repeat(128), '%E2%98%83%F0%9F%92%A5', "'%20OR%201=1--", '..%2F..%2Fetc', '-1', '1e309'];
    const requests: Array<[string, string, RequestOptions]> = [];
    // Each operation gets a rotating share of the malformed ids (one each), queries and bodies: every one of
    // them still reaches several operations (and every family of routes), at a fraction of the full cross product.
    for (const [i, op] of stated.filter(namesRecord).entries()) {
      for (const id of rotatingShare(ids, i, 1)) requests.push([op.method, withFirstId(op, id), op.requestBody ? { json: {} } : {}]);
    }
    // Each malformed query to one list that reads its parameter (status on /work-orders, expand on
    // /workrequests, direction on a native list; limit and cursor spread over all five lists).
    const queries: Array<[string, Record<string, string | number | Array<string | number>>]> = [
      ['/meters', { limit: 'NaN' }], ['/work-orders', { limit: '1e309' }], ['/assets', { limit: '99999999999999999999' }],
      ['/workrequests', { limit: '-0' }], ['/workrequestportals', { limit: '0x10' }], ['/meters', { limit: [1, 2] }],
      ['/work-orders', { cursor: '%FF%FE' }], ['/assets', { cursor: 'x'.repeat(3000) }], ['/workrequests', { cursor: '==' }],
      ['/meters', { direction: ['asc', 'desc'] }], ['/work-orders', { status: 'todo,done' }], ['/workrequests', { expand: 'asset,,asset' }],
    ];
    for (const [path, query] of queries) requests.push(['GET', path, { query }]);
    const json = { 'content-type': 'application/json' };
    const bodies = [
      'null', 'true', '"text"', '123', '[]', `${'['.repeat(2000)}${']'.repeat(2000)}`, `${'{"a":'.repeat(500)}1${'}'.repeat(500)}`,
      '{"__proto__": {"polluted": true}, "title": "CT proto"}', '{"title": "CT \\ud800"}', '{"title": 1e400}', '{"title": "CT dup", "title": 5}',
      JSON.stringify({ title: 'x'.repeat(200_000) }), '\u0000', '{"title": "CT"}garbage',
    ];
    // A JSON body declared in a charset JSON is never sent in (RFC 8259 §8.1): one more malformed input.
    const inputs: Array<[string, Record<string, string>]> = [...bodies.map((body): [string, Record<string, string>] => [body, json]), ['{"title": "CT"}', { 'content-type': 'application/json; charset=utf-16' }]];
    // Bodies go to real records, so they reach the handlers: the shared work order for refused writes
    // and the shared meter (suites/lib/sample-sets.ts; a refused write changes nothing), else the recipe's
    // (each its own records: arranged at once, lib/concurrently.ts).
    const paths = await concurrently(stated.filter((o) => o.requestBody?.mediaTypes.includes('application/json')), async (op, i) => {
      const path = (await sharedRecordPath({ api, as, profile }, op)) ?? (RECIPES[op.operationId] ? (await RECIPES[op.operationId]!({ api, profile })).path : withFirstId(op, 'ct_unknown_id'));
      return { op, i, path };
    });
    // Three of the fifteen inputs per operation, in turn: each input reaches two operations.
    for (const { op, i, path } of paths) for (const [body, headers] of rotatingShare(inputs, i, 3)) requests.push([op.method, path, { body, headers }]);
    requests.push(['GET', '/', {}], ['GET', '/%', {}], ['TRACE', '/meters', {}], ['OPTIONS', '/meters', {}], ['PROPFIND', '/work-orders', {}]);
    // Each malformed request stands alone: sent at once (lib/concurrently.ts), judged in order.
    const answers = await concurrently(requests, ([method, path, options]) => sample.send(method, path, options));
    for (const [i, r] of answers.entries()) {
      const [method, path, options] = requests[i]!;
      expect.soft(r.status, `${method} ${path.slice(0, 80)} ${JSON.stringify(options).slice(0, 120)}`).toBeLessThan(500);
    }
  });

  test('successful authenticated responses carry the rate-limit headers, 201 and 204 included', { tag: ['@RATE-008'] }, async ({ api, as, profile }) => {
    const successes = [...named(await workOrderSamples({ api, as, profile }), ['created', 'read', 'deleted']), ...named(await listSamples({ api, as, profile }), ['meters'])];
    // The samples are successes (which success each gets is SPEC-007's): what this test judges is their headers.
    for (const r of successes) expectSucceeded(r);
    for (const r of successes) {
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(r.headers[name], `${where(r)}: ${name}`).toMatch(/^\d+$/);
    }
  });

  test('documented headers are present and valid: X-Request-ID, X-RateLimit-* on successes', { tag: ['@SPEC-006'] }, async ({ api, as, profile }) => {
    const ctx = { api, as, profile };
    const samples = [
      ...named(await listSamples(ctx), ['workOrders']),
      ...named(await workOrderSamples(ctx), ['updated', 'parts', 'deleted']),
      // GET /work-orders/{unknown id} (404), GET /meters?limit=0 (400), GET /meters without credentials (401)
      ...(await operationErrors(ctx, ['getWorkOrder', 'listMeters'])),
      await missingAuthorization(ctx),
    ];
    expect(samples.map((r) => r.status)).toEqual([200, 200, 200, 204, 404, 400, 401]);
    for (const r of samples) {
      const op = r.exchange.operation!;
      const headers = responseValidator(op, r.status)?.headers ?? {};
      expect(Object.keys(headers), `${where(r)} documents X-Request-ID`).toContain('x-request-id');
      if (r.status < 300) expect(Object.keys(headers), `${where(r)} documents the rate-limit headers`).toEqual(expect.arrayContaining(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']));
      for (const [name, header] of Object.entries(headers)) {
        const value = r.headers[name];
        if (header.required) expect(value, `${where(r)}: ${name}`).toBeDefined();
        if (value !== undefined) expect(header.validate(value), `${where(r)}: ${name}: ${value}`).toEqual([]);
      }
    }
  });
});
