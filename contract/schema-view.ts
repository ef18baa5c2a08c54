/**
 * Three readings of the spec's JSON Schemas, for Ajv:
 * - `stated`: only what the description states (contract/provenance.ts): schema nodes marked
 *   `x-inferred` accept anything, and the keywords a node lists in `x-inferred-keywords` are dropped. The
 *   suite validates responses and judges generated requests with this view, so inferred constraints
 *   never decide certification.
 * - `full`: the stated rules plus the mock's inferred ones. The mock validates requests with this view.
 * - `unbounded`: types, required members and stated rules, but no upper limit the description does not
 *   state: nodes marked `x-inferred` lose `maxLength`, `maximum`, `exclusiveMaximum`, `maxItems`,
 *   `maxProperties` and `pattern` (deep), and an inferred `enum` or upper limit listed in
 *   `x-inferred-keywords` is dropped. The `no-inferred-limits` variant of the mock (docs/freedoms.md)
 *   validates requests with it.
 * All rewrite `#/components/schemas/X` references to absolute ids and drop `x-*` annotations, and
 * all turn a forbidden member spelled `{ not: {} }` (the spec's portable form: some OpenAPI tools
 * reject boolean subschemas) back into the equivalent `false`, so Ajv reports it as before
 * (`false schema`, which the validators turn into "is not allowed here").
 */
import type { JsonSchema } from './openapi.ts';
import { inferredKeywordsOf } from './provenance.ts';

export type SchemaView = 'stated' | 'full' | 'unbounded';

/** The keywords an `unbounded` view drops from inferred nodes: upper limits and patterns. */
const UPPER_LIMITS = new Set(['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties', 'pattern']);

/** A copy of a viewed schema without UPPER_LIMITS at any depth. */
function withoutUpperLimits(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutUpperLimits);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !UPPER_LIMITS.has(k)).map(([k, v]) => [k, k === 'enum' || k === 'const' || k === 'required' ? v : withoutUpperLimits(v)]));
}

/** Base of the absolute `$id` given to each component schema. */
export const SCHEMA_BASE = 'https://mms-conformance-kit.invalid/schemas/';

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_VALUES = new Set([
  'items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames',
  'unevaluatedProperties', 'unevaluatedItems', 'contentSchema',
]);
const SCHEMA_ARRAYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** Returns a copy of `schema` in the given view (see the module comment). */
export function toView(schema: JsonSchema, view: SchemaView): JsonSchema {
  if (typeof schema === 'boolean') return schema;
  if (isNotAnything(schema)) return false;
  if (view === 'stated' && schema['x-inferred'] === true) return true;
  if (view === 'unbounded' && schema['x-inferred'] === true) return withoutUpperLimits(toView({ ...schema, 'x-inferred': false }, view)) as JsonSchema;
  const out: Record<string, unknown> = {};
  const inferred = view === 'stated' ? inferredKeywordsOf(schema) : view === 'unbounded' ? inferredKeywordsOf(schema).filter((k) => k === 'enum' || UPPER_LIMITS.has(k)) : [];
  for (const [key, value] of Object.entries(schema)) {
    if (inferred.includes(key)) continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.startsWith('#/components/schemas/') ? SCHEMA_BASE + value.slice('#/components/schemas/'.length) : value;
    } else if (key.startsWith('x-') || key === 'example') {
      continue;
    } else if (SCHEMA_MAPS.has(key)) {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, JsonSchema>).map(([k, v]) => [k, toView(v, view)]));
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = toView(value as JsonSchema, view);
    } else if (SCHEMA_ARRAYS.has(key)) {
      out[key] = (value as JsonSchema[]).map((v) => toView(v, view));
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** `{ not: {} }` and nothing else: matches no instance, like the boolean schema `false`. */
function isNotAnything(schema: Record<string, unknown>): boolean {
  const keys = Object.keys(schema);
  const not = schema.not;
  return keys.length === 1 && keys[0] === 'not' && not !== null && typeof not === 'object' && !Array.isArray(not) && Object.keys(not).length === 0;
}
