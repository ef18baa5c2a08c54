/**
 * Generative testing (Schemathesis-like) of every operation: requests generated from the spec's
 * schemas (contract/arbitraries/) on top of the operation's recipe (suites/recipes), which supplies
 * what cannot be generated — path ids of real records, references in bodies, server-issued versions.
 *
 * Conventions (as suites/lib/property.ts): the run's seed (suites/lib/settings.ts), printed; `run --seed`
 * and FC_RUNS change it and the run count. The number of generated requests per operation and phase is `genBudget()`
 * (MMS_GEN_BUDGET; default 2), the stateful run's size `statefulBudget()` (the same variable; default
 * 3). Every failure names the seed and a curl command of the failing request, with the key written
 * `$MMS_KEY_LIVE`.
 */
import { test } from '@playwright/test';
import { resolve, validatorOf } from '../../contract/arbitraries/schema-resolution.ts';
import { arbitraryWithPins, fc } from '../../contract/arbitraries/valid-values.ts';
import { violations, type Violation } from '../../contract/arbitraries/violations.ts';
import { loadOpenApi, loadOperations, type JsonSchema, type Operation, type Parameter } from '../../contract/openapi.ts';
import { createSchemaRegistry } from '../../contract/ajv.ts';
import { compileRequestValidator, type RequestValidator } from '../../contract/validators.ts';
import { toView, type SchemaView } from '../../contract/schema-view.ts';
import type { Provenance } from '../../contract/provenance.ts';
import { bodyViolationProvenance, levelOf, parameterViolationProvenance } from './case-provenance.ts';
import type { PreparedRequest } from '../recipes/index.ts';
import type { ApiClient } from '../lib/client.ts';
import * as replay from './replay.ts';
import type { GenRequest } from './replay.ts';
import { runSettings } from '../lib/settings.ts';

export { NEGATIVE_REQUIREMENTS, brokenKeyword } from './case-provenance.ts';
export { DEFAULT_BUDGET, DEFAULT_SEED, DEFAULT_STATEFUL_BUDGET, curlOf, reproducible, sequenceFailure, type GenRequest } from './replay.ts';

/** Generated requests per operation and phase in this run (replay.ts over the run's settings). */
export const genBudget = (): number => replay.genBudget(runSettings());
/** The stateful run's budget in this run. */
export const statefulBudget = (): number => replay.statefulBudget(runSettings());
/** fast-check parameters of a generative property in this run (replay.ts genParameters). */
export const genParameters = <T>(seed: number, timeLimitMs?: number): fc.Parameters<T> => replay.genParameters<T>(runSettings(), seed, timeLimitMs);
/** The command sequence to replay in this run, if any (replay.ts commandsReplay). */
export const commandsReplay = (): { replayPath?: string } => replay.commandsReplay(runSettings());
/** The digest of requests (replay.ts requestDigest), their text written where the run's settings say. */
export const requestDigest = (requests: GenRequest[]): string => replay.requestDigest(requests, runSettings().genDigestDir);


/**
 * The seed of this test (the run's: `run --seed`, FC_SEED), printed and attached to the test as an annotation with
 * the reproduction command, which names `budget` (the stateful run passes its own, `statefulBudget()`).
 */
export function genSeed(budget = genBudget()): number {
  const settings = runSettings();
  const seed = settings.seed;
  const path = settings.path ? ` FC_PATH=${settings.path}` : '';
  const line = `generative seed=${seed} budget=${budget}${path} — reproduce: FC_SEED=${seed}${path} MMS_GEN_BUDGET=${budget} npx mms-conformance run --grep "${test.info().title}"`;
  test.info().annotations.push({ type: 'fast-check', description: line });
  process.stdout.write(`${line}\n`);
  return seed;
}

const registries: Partial<Record<SchemaView, ReturnType<typeof createSchemaRegistry>>> = {};
const validators = new Map<string, RequestValidator>();

/**
 * The request validator of an operation in a view (the mock's own readers: the oracle of parameters),
 * compiled on first use: compiling every operation's in both views cost each worker ~0.6 s of CPU, and
 * a test needs one operation's (a failed test makes Playwright start a new worker).
 */
export function requestValidator(op: Operation, view: SchemaView): RequestValidator {
  const key = `${view} ${op.operationId}`;
  let v = validators.get(key);
  if (!v) validators.set(key, (v = compileRequestValidator((registries[view] ??= createSchemaRegistry(view)), op, view)));
  return v;
}

/**
 * Members whose valid values depend on the server's state, never generated: references to existing
 * records (Id schemas, `…_id`/`…Id` names), a server-issued version (`expectedAggregateVersion`: "the
 * last-read aggregateVersion"), custom-field values (`extraFields`: keyed by labels the organization
 * defines) and opaque cursors (Limits › Pagination: "Cursors are opaque").
 */
export function serverBound(name: string, schema: JsonSchema | undefined): boolean {
  if (['expectedAggregateVersion', 'extraFields', 'cursor'].includes(name)) return true;
  if (/(_id|Id|_ids|Ids)$/.test(name)) return true;
  return typeof schema === 'object' && typeof schema.$ref === 'string' && /\/(Id|NullableId)$/.test(schema.$ref);
}

/** Whether a body schema states anything in a view (the stated view of an inferred body is `true`). */
export function statesBody(op: Operation, view: SchemaView): boolean {
  const schema = op.requestBody?.schema;
  return schema !== undefined && op.requestBody!.mediaTypes.includes('application/json') && resolve(schema, view) !== true;
}

/** Whether the stated and full views of a schema differ, here or in a component it references. */
export function viewsDiffer(schema: JsonSchema, seen = new Set<string>()): boolean {
  const full = JSON.stringify(toView(schema, 'full'));
  if (JSON.stringify(toView(schema, 'stated')) !== full) return true;
  for (const m of full.matchAll(/"\$ref":"[^"]*\/([A-Za-z0-9]+)"/g)) {
    if (seen.has(m[1]!)) continue;
    seen.add(m[1]!);
    if (viewsDiffer(loadOpenApi().components.schemas[m[1]!] ?? true, seen)) return true;
  }
  return false;
}

/** The object schema of an operation's query parameters (cursor left out), in a view. */
function querySchema(op: Operation, view: SchemaView, keep: (p: Parameter) => boolean): Record<string, unknown> {
  const list = op.parameters.filter((p) => p.in === 'query' && p.name !== 'cursor' && keep(p));
  return {
    type: 'object',
    properties: Object.fromEntries(list.map((p) => [p.name, view === 'stated' && p.inferred ? true : p.schema])),
    required: list.filter((p) => p.required).map((p) => p.name),
  };
}

/** Query values as strings: arrays repeated, or comma-joined for `style: form, explode: false`. */
export function queryStrings(op: Operation, values: Record<string, unknown>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) continue;
    const p = op.parameters.find((x) => x.in === 'query' && x.name === k);
    out[k] = Array.isArray(v) ? (p?.commaSeparated ? v.map(String).join(',') : v.map(String)) : String(v);
  }
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The recipe's query as strings. */
function recipeQuery(prepared: PreparedRequest): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(prepared.options?.query ?? {})) {
    if (v === undefined) continue;
    out[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  return out;
}

/**
 * An arbitrary of valid requests of `op`, in `view` ('stated': only what the description states — an
 * inferred parameter or body member is left as the recipe has it; 'full': the inferred rules too). The
 * recipe's path, its server-bound members and its non-JSON body are kept.
 */
export function requestArbitrary(op: Operation, prepared: PreparedRequest, view: SchemaView): fc.Arbitrary<GenRequest> {
  const query = arbitraryWithPins(querySchema(op, view, (p) => view === 'full' || (!p.inferred && !op.inferred)), view, {}).map((q) => ({ ...recipeQuery(prepared), ...queryStrings(op, q) }));
  const recipeBody = prepared.options?.json;
  let body: fc.Arbitrary<unknown> = fc.constant(recipeBody);
  if (statesBody(op, view) && (recipeBody === undefined || isRecord(recipeBody))) {
    const schema = op.requestBody!.schema!;
    const resolved = resolve(schema, view);
    const props = typeof resolved === 'object' ? collectProps(resolved) : {};
    const pins: Record<string, unknown> = {};
    for (const [name, s] of Object.entries(props)) {
      // Stated view: an inferred member (schema `true`) is not generated; the recipe's value stays.
      if (serverBound(name, s) || (view === 'stated' && s === true)) pins[name] = isRecord(recipeBody) ? recipeBody[name] : undefined;
    }
    body = arbitraryWithPins(schema, view, pins).map((generated) => {
      // Members the recipe sends that the schema does not name (a target's profile `bodies`) stay.
      const extra = isRecord(recipeBody) ? Object.fromEntries(Object.entries(recipeBody).filter(([k]) => !(k in props))) : {};
      return { ...extra, ...generated };
    });
  }
  return fc.record({ query, json: body }).map(({ query: q, json }) => ({
    method: prepared.method,
    path: prepared.path,
    query: q,
    json,
    raw: prepared.options?.json === undefined && prepared.options?.body !== undefined ? prepared.options : undefined,
  }));
}

/** The named members of an object schema: its own and those of its oneOf/anyOf/allOf branches. */
function collectProps(s: Record<string, unknown>): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    for (const m of (s[key] as JsonSchema[] | undefined) ?? []) {
      const r = resolve(m, 'full');
      if (typeof r === 'object') for (const [k, v] of Object.entries(collectProps(r))) if (v !== false) out[k] ??= v;
    }
  }
  for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>)) if (v !== false) out[k] = v;
  return out;
}

/** One invalid request: the valid recipe request with one constraint broken, and at which level. */
export interface NegativeCase {
  input: string;
  request: GenRequest;
  /** 'must' when the description states the broken constraint (its provenance is stated and the stated view refuses it). */
  level: 'must' | 'inferred';
  /** Where the broken constraint comes from (contract/provenance.ts): the description's words, or why it is inferred. */
  provenance: Provenance;
}

/**
 * Every request that breaks exactly one constraint of `op`'s query parameters, integer path
 * parameters or JSON body, starting from the recipe's valid request. Each is confirmed invalid by the
 * 'full' oracle; its level is read from provenance (contract/provenance.ts): `must` when the route and
 * the broken keyword are stated (x-source) and the 'stated' oracle refuses it too, else `inferred` —
 * no caller chooses it. Left out, as the description does not make them errors: unknown query
 * parameters (it never says they are refused), string path ids (any id is a lookup: 404) and cursors
 * (opaque).
 */
export function negativeCases(op: Operation, prepared: PreparedRequest): NegativeCase[] {
  const out: NegativeCase[] = [];
  const full = requestValidator(op, 'full');
  const stated = requestValidator(op, 'stated');
  const pathValues = pathParams(op, prepared.path);
  const baseQuery = recipeQuery(prepared);
  const asLists = (q: Record<string, string | string[]>) => Object.fromEntries(Object.entries(q).map(([k, v]) => [k, ([] as string[]).concat(v).flatMap((x) => (op.parameters.find((p) => p.name === k)?.commaSeparated ? x.split(',') : [x]))]));
  const refuses = (v: RequestValidator, path: Record<string, string>, q: Record<string, string | string[]>) => v.readParams(path, asLists(q)).errors.length > 0;
  const base: GenRequest = { method: prepared.method, path: prepared.path, query: baseQuery, json: prepared.options?.json, raw: prepared.options?.json === undefined && prepared.options?.body !== undefined ? prepared.options : undefined };

  // Query parameters.
  const typed = full.readParams(pathValues, asLists(baseQuery)).values;
  const qSchema = querySchema(op, 'full', () => true);
  const start = Object.fromEntries(Object.entries(typed).filter(([k]) => k in (qSchema.properties as object)));
  for (const v of safeViolations(qSchema, start)) {
    const name = v.pointer.split('/')[1];
    if (!name || v.pointer.split('/').length !== 2 || v.constraint.startsWith('additionalProperties')) continue;
    const param = op.parameters.find((p) => p.in === 'query' && p.name === name);
    if (!param) continue;
    const value = (v.value as Record<string, unknown>)[name];
    const query = { ...baseQuery, ...queryStrings(op, { [name]: value }) };
    if (value === undefined) delete query[name];
    if (!refuses(full, pathValues, query)) continue;
    const provenance = parameterViolationProvenance(op, name, v.constraint);
    const level = levelOf(op, provenance, !param.inferred && refuses(stated, pathValues, query));
    out.push({ input: `query ${name}: ${v.constraint} (${JSON.stringify(value)?.slice(0, 40)})`, request: { ...base, query }, level, provenance });
  }

  // Integer path parameters (Custom fields: `id` is an integer 1..2147483647).
  for (const p of op.parameters.filter((x) => x.in === 'path' && typeof x.schema === 'object' && x.schema.type === 'integer')) {
    const current = Number(pathValues[p.name]);
    for (const v of safeViolations(p.schema, current)) {
      const bad = typeof v.value === 'number' ? String(v.value) : String(v.value);
      const path = replaceSegment(op, prepared.path, p.name, encodeURIComponent(bad));
      const values = { ...pathValues, [p.name]: bad };
      if (!refuses(full, values, baseQuery)) continue;
      const provenance = parameterViolationProvenance(op, p.name, v.constraint);
      out.push({ input: `path ${p.name}: ${v.constraint} (${bad})`, request: { ...base, path }, level: levelOf(op, provenance, refuses(stated, values, baseQuery)), provenance });
    }
  }

  // JSON body.
  const schema = op.requestBody?.schema;
  if (schema && op.requestBody!.mediaTypes.includes('application/json') && prepared.options?.json !== undefined) {
    const statedValidate = validatorOf(schema, 'stated');
    for (const v of safeViolations(schema, prepared.options.json)) {
      const provenance = bodyViolationProvenance(op, v);
      const statedRefuses = statesBody(op, 'stated') && !statedValidate(v.value) && !underInferred(schema, v.pointer);
      out.push({ input: `body ${v.pointer || '(root)'}: ${v.constraint}`, request: { ...base, json: v.value }, level: levelOf(op, provenance, statedRefuses), provenance });
    }
  }
  return out;
}

/** Violations, or none when the start value is itself outside the full view (a profile's extra body). */
function safeViolations(schema: JsonSchema, value: unknown): Violation[] {
  try {
    return violations(schema, value, 'full');
  } catch {
    return [];
  }
}

/** Whether the member at `pointer` (or one above it) is inferred in the body schema. */
function underInferred(schema: JsonSchema, pointer: string): boolean {
  let s = resolve(schema, 'stated');
  for (const part of pointer.split('/').slice(1)) {
    if (s === true) return true;
    if (typeof s !== 'object') return false;
    const props = collectProps(s);
    if (/^\d+$/.test(part) && s.items !== undefined) {
      s = resolve(s.items as JsonSchema, 'stated');
      continue;
    }
    if (!(part in props)) return s.additionalProperties === undefined ? false : false;
    s = resolve(props[part], 'stated');
  }
  return s === true;
}

/** The path parameters of a concrete path of `op` (`/meters/abc` → {id: 'abc'}), undecoded. */
export function pathParams(op: Operation, path: string): Record<string, string> {
  const template = op.path.split('/');
  const actual = path.split('?')[0]!.split('/');
  const out: Record<string, string> = {};
  template.forEach((seg, i) => {
    const m = /^\{(\w+)\}$/.exec(seg);
    if (m && actual[i] !== undefined) out[m[1]!] = actual[i]!;
  });
  return out;
}

function replaceSegment(op: Operation, path: string, name: string, value: string): string {
  const index = op.path.split('/').indexOf(`{${name}}`);
  return path.split('/').map((seg, i) => (i === index ? value : seg)).join('/');
}

/** Picks up to `n` items of `list`, the same ones for the same seed. */
export function pick<T>(list: T[], n: number, seed: number): T[] {
  if (list.length <= n) return list;
  return fc.sample(fc.shuffledSubarray(list, { minLength: n, maxLength: n }), { numRuns: 1, seed })[0]!;
}

export const OPERATIONS = loadOperations();

/** The operation's recipe, or a bare GET when it needs no input: the suite's one lookup (recipes/index.ts), whose requests the worker's prepared cache shares. */
export { recipeOf } from '../recipes/index.ts';

/** Sends a generated request with `client`. */
export function send(client: ApiClient, r: GenRequest) {
  return client.send(r.method, r.path, r.raw ? { query: r.query, body: r.raw.body, headers: r.raw.headers } : { query: r.query, json: r.json });
}

