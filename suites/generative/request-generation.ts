/**
 * Generated valid requests (Schemathesis-like) of every operation (docs/generative.md, "What runs": the
 * positive phase; the negative phase starts from the same requests): values generated from the spec's
 * schemas (contract/arbitraries/) on top of the operation's recipe (suites/recipes), which supplies
 * what cannot be generated — path ids of real records, references in bodies, server-issued versions.
 * Also the readers both phases share: an operation's request validator, its query schema and strings,
 * the path parameters of a concrete path, and sending a generated request.
 */
import { resolve } from '../../contract/arbitraries/schema-resolution.ts';
import { arbitraryWithPins, fc } from '../../contract/arbitraries/valid-values.ts';
import { loadOpenApi, loadOperations, type JsonSchema, type Operation, type Parameter } from '../../contract/openapi.ts';
import { createSchemaRegistry } from '../../contract/ajv.ts';
import { compileRequestValidator, type RequestValidator } from '../../contract/validators.ts';
import { toView, type SchemaView } from '../../contract/schema-view.ts';
import type { PreparedRequest } from '../recipes/index.ts';
import type { ApiClient } from '../lib/client.ts';
import type { GenRequest } from './replay.ts';

export const OPERATIONS = loadOperations();

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
export function querySchema(op: Operation, view: SchemaView, keep: (p: Parameter) => boolean): Record<string, unknown> {
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
export function recipeQuery(prepared: PreparedRequest): Record<string, string | string[]> {
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
export function collectProps(s: Record<string, unknown>): Record<string, JsonSchema> {
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

/** Sends a generated request with `client`. */
export function send(client: ApiClient, r: GenRequest) {
  return client.send(r.method, r.path, r.raw ? { query: r.query, body: r.raw.body, headers: r.raw.headers } : { query: r.query, json: r.json });
}
