/**
 * Schema resolution shared by the arbitraries and the violation finder (docs/generative.md, "What
 * runs"): the spec's JSON Schemas (2020-12, as spec/openapi.yaml uses them) in a view, with `$ref`s
 * followed, `allOf` folded in and `oneOf`/`anyOf` branches merged with their parent, and the kit's Ajv
 * validator of a schema, the oracle every generated value and violation is checked against.
 *
 * The description's rules behind the schemas: Resources and their fields, Endpoints, Errors, Limits.
 */
import type { ValidateFunction } from 'ajv';
import { loadOpenApi, type JsonSchema } from '../openapi.ts';
import { SCHEMA_BASE, toView, type SchemaView } from '../schema-view.ts';
import { cachedCompiler } from '../ajv-cache.ts';

/** An object schema (a JSON Schema that is not a boolean). */
export type Schema = Record<string, unknown>;

const compiled = new Map<string, ValidateFunction>();

/**
 * The Ajv validator of `schema` in `view` (compiled once per schema text, from the disk cache of
 * compiled schemas when it holds it: contract/ajv-cache.ts). Used as the oracle.
 */
export function validatorOf(schema: JsonSchema, view: SchemaView): ValidateFunction {
  const key = `${view}:${JSON.stringify(schema)}`;
  let v = compiled.get(key);
  if (!v) {
    const viewed = toView(schema, view);
    v = cachedCompiler(view).compile(typeof viewed === 'boolean' ? (viewed ? {} : { not: {} }) : viewed);
    compiled.set(key, v);
  }
  return v;
}

/** A readable name of a schema for error messages: its component name or a prefix of its text. */
export function schemaName(schema: JsonSchema): string {
  if (typeof schema === 'object' && typeof schema.$ref === 'string') return schema.$ref.split('/').at(-1)!;
  return JSON.stringify(schema).slice(0, 120);
}

/** The schema in `view` with its top-level `$ref`s followed (boolean schemas stay booleans). */
export function resolve(schema: JsonSchema | undefined, view: SchemaView): JsonSchema {
  let s = toView(schema ?? true, view);
  for (let depth = 0; typeof s === 'object' && typeof s.$ref === 'string'; depth++) {
    if (depth > 20) throw new Error(`$ref cycle at ${String(s.$ref)}`);
    const name = s.$ref.replace(SCHEMA_BASE, '').replace('#/components/schemas/', '');
    const target = loadOpenApi().components.schemas[name];
    if (target === undefined) throw new Error(`unknown schema reference ${String(s.$ref)}`);
    const { $ref: _ref, ...rest } = s;
    const t = toView(target, view);
    s = typeof t === 'boolean' ? t : Object.keys(rest).length ? merge(t, rest as Schema) : t;
  }
  return s;
}

/** The `type` of a schema as a list (none when it states no type). */
export const typesOf = (s: Schema): string[] =>
  s.type === undefined ? [] : ([] as string[]).concat(s.type as string | string[]);

/**
 * Two object schemas as one (their conjunction, as far as generation needs it): properties merged
 * (a `false` property wins), `required` united, other keywords of `b` override `a`'s.
 */
export function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  const pa = (a.properties ?? {}) as Record<string, JsonSchema>;
  const pb = (b.properties ?? {}) as Record<string, JsonSchema>;
  if (a.properties || b.properties) {
    const props: Record<string, JsonSchema> = { ...pa };
    for (const [k, v] of Object.entries(pb)) props[k] = v === false || pa[k] === undefined ? v : pa[k] === false ? false : { allOf: [pa[k], v] };
    out.properties = props;
  }
  if (a.required || b.required) out.required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  if (a.type !== undefined && b.type === undefined) out.type = a.type;
  return out;
}

/** The schema with its `allOf` folded in (members resolved), for generation and violation finding. */
export function flatten(schema: JsonSchema, view: SchemaView): JsonSchema {
  const s = resolve(schema, view);
  if (typeof s === 'boolean' || !Array.isArray(s.allOf)) return s;
  const { allOf, ...rest } = s;
  let out: Schema = rest;
  for (const member of allOf as JsonSchema[]) {
    const m = flatten(member, view);
    if (m === false) return false;
    if (m !== true) out = merge(out, m);
  }
  return out;
}

/** The branches of a `oneOf`/`anyOf`, each merged with the schema around it. */
export function branches(s: Schema, keyword: 'oneOf' | 'anyOf', view: SchemaView): JsonSchema[] {
  const { [keyword]: members, ...rest } = s;
  const out = (members as JsonSchema[]).map((m) => {
    const r = flatten(m, view);
    return typeof r === 'boolean' ? r : merge(rest, r);
  });
  // A branch that requires a member its properties forbid (a pinned-out reference) cannot be met.
  const possible = out.filter((b) => b !== false && (typeof b === 'boolean' || !((b.required as string[] | undefined) ?? []).some((k) => (b.properties as Record<string, JsonSchema> | undefined)?.[k] === false)));
  if (possible.length === 0) throw new Error(`no branch of ${keyword} can be satisfied`);
  return possible;
}
