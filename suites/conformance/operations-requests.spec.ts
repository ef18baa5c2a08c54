/**
 * Operation-wide checks, Schemathesis-style (Endpoints; Errors; Authentication): every operation that has
 * a recipe (suites/recipes), or needs no input, is sent
 * - with one input of the wrong type, generated from its spec parameters and body schema: 400
 *   `validation_error` (SPEC-008);
 * - valid: it gets its documented success status (SPEC-007);
 * - that valid response and one with an unknown id have documented statuses and bodies (SPEC-001,
 *   SPEC-002): judged from the valid request the SPEC-007 test sent, so no operation is prepared twice;
 * and creates read back through the read or list operation (SPEC-009). Deletes leaving reads and lists
 * (SPEC-010, States and transitions) are operations-deletes.spec.ts's. Operations whose route is
 * inferred, inputs the description does not show and behaviour it leaves open are tagged SPEC-005
 * instead, so they never decide certification.
 *
 * The 401s are auth.spec.ts's (without credentials on every operation, AUTH-001) and
 * properties/authorization.spec.ts's (an unknown key on generated operations, AUTH-007).
 *
 * An operation's tests run in order in one worker (describe mode `default`): the refused requests and
 * the valid one share one prepared request, the worker's (lib/prepared-cache.ts `workerPrepared`,
 * shared with scopes.spec.ts and the negative phase; a request that was not refused spoils it), the
 * valid one last: it takes the request, and puts it back only after a read's expected success (a valid
 * create shares the record it made); the status test after it judges that valid response (and sends its own
 * when the worker that sent it failed and was replaced), and the read-back test reads back what that
 * valid create made (the same fallback).
 */
import { test, expect } from '../fixtures.ts';
import { proves } from '../lib/proves.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { isEnumSchema, operations } from '../lib/operations.ts';
import { workerPrepared as prepared } from '../lib/prepared-cache.ts';
import { borrow, runningTest } from '../lib/response-samples.ts';
import { responseValidator } from '../../contract/spec-index.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import { expectPrepared, settleTaken, recipeOf, sendPrepared as send, type PreparedRequest } from '../recipes/index.ts';
import { loadOpenApi, type JsonSchema, type Operation } from '../../contract/openapi.ts';
import { SCHEMA_BASE, toView, type SchemaView } from '../../contract/schema-view.ts';
import { findListed, GETS, isObject, parentPath, resourcesIn, tagFor, unwrap, type Resource } from './operations-helpers.ts';

type Schema = Record<string, unknown>;
type Level = 'must' | 'inferred';

const components = loadOpenApi().components.schemas;

/** The schema in a view with its `$ref`s followed; undefined when it states nothing (`true`, `{}`). */
function resolved(schema: JsonSchema | undefined, view: SchemaView): Schema | undefined {
  let s = toView(schema ?? true, view);
  for (let depth = 0; typeof s === 'object' && typeof s.$ref === 'string' && depth < 10; depth++) {
    const name = s.$ref.replace(SCHEMA_BASE, '').replace('#/components/schemas/', '');
    s = toView(components[name] ?? true, view);
  }
  return typeof s === 'object' && Object.keys(s).length > 0 ? s : undefined;
}

/** The properties an object schema names, its own and those of its allOf, oneOf and anyOf members. */
function properties(schema: Schema, view: SchemaView): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = { ...((schema.properties as Record<string, JsonSchema> | undefined) ?? {}) };
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const member of (schema[key] as JsonSchema[] | undefined) ?? []) {
      const m = resolved(member, view);
      if (m) for (const [name, s] of Object.entries(properties(m, view))) if (s !== false) out[name] ??= s;
    }
  }
  return out;
}

const firstType = (s: Schema): unknown => ([] as unknown[]).concat(s.type ?? []).find((t) => t !== 'null');

/** A query or path value the parameter's schema refuses (not a number, not a listed value), if it has one. */
function wrongParameter(schema: JsonSchema, view: SchemaView): string | undefined {
  const s = resolved(schema, view);
  const item = s && firstType(s) === 'array' ? resolved(s.items as JsonSchema, view) : s;
  if (!item) return undefined;
  if (item.enum !== undefined || item.const !== undefined) return 'not_a_listed_value';
  const type = firstType(item);
  if (type === 'integer' || type === 'number') return 'not-a-number';
  if (type === 'boolean') return 'not-a-boolean';
  return undefined;
}

/** A JSON value of another type than the schema states, if it states one. */
function wrongJson(schema: JsonSchema, view: SchemaView): unknown {
  const s = resolved(schema, view);
  if (!s) return undefined;
  const listed = s.const ?? (s.enum as unknown[] | undefined)?.[0];
  if (listed !== undefined) return typeof listed === 'string' ? 12345 : 'not-a-listed-value';
  const wrong: Record<string, unknown> = { string: 12345, integer: 'not-a-number', number: 'not-a-number', boolean: 'not-a-boolean', array: 'not-an-array', object: 'not-an-object' };
  return wrong[firstType(s) as string];
}

/** One input of a valid request replaced by a value of the wrong type. */
interface Mutation {
  input: string;
  apply(request: PreparedRequest): PreparedRequest;
}

function withQuery(name: string, value: string): Mutation {
  return { input: `query ${name}=${value}`, apply: (r) => ({ ...r, options: { ...r.options, query: { ...r.options?.query, [name]: value } } }) };
}

function withPathSegment(op: Operation, name: string, value: string): Mutation {
  const index = op.path.split('/').indexOf(`{${name}}`);
  return {
    input: `path ${name}=${value}`,
    apply: (r) => ({ ...r, path: r.path.split('/').map((segment, i) => (i === index ? value : segment)).join('/') }),
  };
}

function withBody(input: string, change: (body: Resource) => unknown): Mutation {
  return { input, apply: (r) => ({ ...r, options: { ...r.options, json: change(r.options?.json as Resource) } }) };
}

/**
 * The wrong-type inputs of an operation at one level: `must` covers the parameters and body fields the
 * description states, `inferred` those it does not (all of them on an inferred operation). Without
 * `body`, only the inputs known before a request is built (parameters, the body as a whole).
 */
function mutations(op: Operation, level: Level, body?: Resource): Mutation[] {
  if (!op.responses.some((r) => r.status === 400) || (op.inferred && level === 'must')) return [];
  const view: SchemaView = level === 'must' ? 'stated' : 'full';
  const out: Mutation[] = [];
  for (const p of op.parameters) {
    if (p.in !== 'query' && p.in !== 'path') continue;
    const value = wrongParameter(p.schema, view);
    if (value === undefined) continue;
    const stated = !op.inferred && !p.inferred && wrongParameter(p.schema, 'stated') !== undefined;
    if (stated !== (level === 'must')) continue;
    if (p.in === 'query') out.push(withQuery(p.name, value));
    else if (firstType(resolved(p.schema, view) ?? {}) === 'integer') out.push(withPathSegment(op, p.name, value));
  }
  if (!op.requestBody?.mediaTypes.includes('application/json')) return out;
  const stated = resolved(op.requestBody.schema, 'stated');
  const schema = level === 'must' ? stated : op.inferred || !stated ? resolved(op.requestBody.schema, 'full') : undefined;
  if (!schema) return out;
  out.push(withBody('the body as an array', (b) => [b]));
  const props = properties(schema, view);
  const field = Object.keys(body ?? {}).find((k) => props[k] !== undefined && wrongJson(props[k]!, view) !== undefined);
  if (field) out.push(withBody(`body field ${field}`, (b) => ({ ...b, [field]: wrongJson(props[field]!, view) })));
  return out;
}

/** Whether a response schema identifies what it answers by an `id` (creates do; commands on a section do not). */
function identifiesResource(schema: JsonSchema | undefined): boolean {
  const s = resolved(schema, 'full');
  if (!s) return false;
  if (firstType(s) === 'array') return 'id' in properties(resolved(s.items as JsonSchema, 'full') ?? {}, 'full');
  const props = properties(s, 'full');
  if ('id' in props) return true;
  return Object.values(props).some((p) => {
    const inner = resolved(p, 'full');
    return inner !== undefined && firstType(inner) !== 'array' && 'id' in properties(inner, 'full');
  });
}

/** How a created resource is read back: the GET of `{path}/{id}`, or the list GET of the same path. */
function readerOf(op: Operation): { kind: 'single' | 'list'; read: Operation } | undefined {
  const success = op.responses.find((r) => r.status === 200 || r.status === 201);
  if (op.method !== 'POST' || !identifiesResource(success?.schema)) return undefined;
  const single = GETS.find((g) => parentPath(g.path) === op.path && g.path !== op.path);
  if (single) return { kind: 'single', read: single };
  const list = GETS.find((g) => g.path === op.path);
  return list ? { kind: 'list', read: list } : undefined;
}

const CROSS_CUTTING = [401, 403, 429];
const where = (r: ApiResponse) => `${r.status} to ${r.exchange.method} ${r.exchange.path}`;

/** The request with its last id path parameter replaced by an id the organization does not have. */
function withUnknownId(op: Operation, request: PreparedRequest): PreparedRequest | undefined {
  const segments = op.path.split('/');
  const index = segments.findLastIndex((s) => {
    const p = op.parameters.find((q) => q.in === 'path' && `{${q.name}}` === s);
    return p !== undefined && !isEnumSchema(p.schema);
  });
  if (index === -1) return undefined;
  const param = op.parameters.find((q) => `{${q.name}}` === segments[index])!;
  const unknown = (param.schema as { type?: string }).type === 'integer' ? '2147483646' : 'ct_unknown_id_0000';
  return { ...request, path: request.path.split('/').map((s, i) => (i === index ? unknown : s)).join('/') };
}

/**
 * The valid request each operation's SPEC-007 test sent in this worker, its response and that test's
 * title, for the tests after it: they judge the response borrowed (suites/lib/response-samples.ts), so a
 * failure on it shows it as their evidence, counted among the sender's requests.
 */
const validSent = new Map<string, { request: PreparedRequest; response: ApiResponse; sentBy: string }>();

/** The SPEC-007 response of `operationId` as a response of `api`'s session, if this worker sent one. */
function borrowValid(api: ApiClient, operationId: string): { request: PreparedRequest; response: ApiResponse } | undefined {
  const sent = validSent.get(operationId);
  return sent && { request: sent.request, response: borrow(api.session, sent.response, sent.sentBy) };
}

for (const op of operations) {
  const recipe = recipeOf(op);

  test.describe(`${op.operationId} (${op.method} ${op.path})`, () => {
    // In order, in one worker: the refused requests share one prepared request; the valid one, after them, may consume it.
    test.describe.configure({ mode: 'default' });

    for (const level of ['must', 'inferred'] as const) {
      if (mutations(op, level).length === 0) continue;
      const title = level === 'must' ? 'an input of the wrong type answers 400 validation_error' : 'an inferred input of the wrong type answers 400 validation_error';
      test(title, { tag: tagFor(['@SPEC-008'], level === 'inferred') }, async ({ api, profile }) => {
        const request = await prepared.get(op.operationId, (records) => recipe({ api, profile, records }));
        const body = request.options?.json;
        for (const m of mutations(op, level, isObject(body) ? body : undefined)) {
          const response = await send(api, m.apply(request));
          if (response.status !== 400) prepared.spoil(op.operationId);
          expect(response.status, `${op.operationId} with ${m.input}: ${response.text.slice(0, 300)}`).toBe(400);
          expectProblem(response, 400, 'validation_error');
        }
      });
    }

    test('a valid request gets its documented success status', { tag: tagFor(['@SPEC-007'], op.inferred) }, async ({ api, profile }) => {
      const request = await prepared.take(op.operationId, (records) => recipe({ api, profile, records }));
      expect(op.responses.filter((r) => r.status < 300).map((r) => r.status), 'the recipe expects a documented success').toContain(request.expect);
      const response = await send(api, request);
      settleTaken(prepared, op.operationId, request, response);
      validSent.set(op.operationId, { request, response, sentBy: runningTest() });
      expectPrepared(request, response, `${op.operationId}: ${response.text.slice(0, 300)}`);
    });

    test('statuses and bodies are as documented', { tag: tagFor(['@SPEC-001', '@SPEC-002'], op.inferred) }, async ({ api, profile }) => {
      let valid = borrowValid(api, op.operationId);
      if (!valid) {
        const request = await recipe({ api, profile });
        valid = { request, response: await send(api, request) };
      }
      const unknown = withUnknownId(op, valid.request);
      // The 401 of every operation is auth.spec.ts's (without credentials), judged there by the same universal checks.
      const responses = [valid.response, ...(unknown ? [await send(api, unknown)] : [])];
      // The valid request arranges this test (its exact success status is SPEC-007's); each assertion names its own requirement.
      expectPrepared(valid.request, valid.response, `${op.operationId} valid: ${valid.response.text.slice(0, 300)}`, 'success');
      for (const r of responses) {
        const documented = op.responses.some((d) => d.status === r.status) || CROSS_CUTTING.includes(r.status);
        expect.soft(documented, proves([op.inferred ? 'SPEC-005' : 'SPEC-001'], `${where(r)} is documented for ${op.operationId}`)).toBe(true);
        const validator = responseValidator(op, r.status);
        if (validator?.validateBody && r.body !== undefined) expect.soft(validator.validateBody(r.body), proves(['SPEC-002'], `${where(r)}: body schema`)).toEqual([]);
      }
    });

    const reader = readerOf(op);
    if (reader) {
      test(`the created resource reads back through ${reader.read.operationId}`, { tag: tagFor(['@SPEC-009'], op.inferred || reader.read.inferred) }, async ({ api, profile }) => {
        // The create the SPEC-007 test sent in this worker, when there is one: a second create proves nothing more.
        const sentBefore = borrowValid(api, op.operationId);
        validSent.delete(op.operationId);
        const prepared = sentBefore?.request ?? (await recipe({ api, profile }));
        const created = sentBefore?.response ?? (await send(api, prepared));
        expectPrepared(prepared, created, created.text.slice(0, 300), 'success');
        const resources = resourcesIn(created.body);
        expect(resources.length, `${op.operationId} answers the created resource`).toBeGreaterThan(0);
        const sent = isObject(prepared.options?.json) ? prepared.options.json : {};
        for (const resource of resources) {
          const id = String(resource.id);
          let found: Resource | undefined;
          if (reader.kind === 'single') {
            const read = await api.get(`${prepared.path}/${encodeURIComponent(id)}`);
            expect(read.status, `${reader.read.operationId} of ${id}`).toBe(200);
            found = unwrap(read.body);
          } else {
            found = await findListed(api, prepared.path, id);
          }
          expect(found, `${reader.read.operationId} shows ${id}`).toBeDefined();
          for (const key of Object.keys(sent).filter((k) => k in resource && (reader.kind === 'single' || k in found!))) {
            expect(found![key], `${key} of ${id} as read`).toEqual(resource[key]);
          }
        }
      });
    }
  });
}
