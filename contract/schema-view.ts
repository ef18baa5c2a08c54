/**
 * Two readings of the spec's JSON Schemas, for Ajv:
 * - `stated`: only what the description states. Schema nodes marked `x-inferred` accept anything. The
 *   suite validates responses with this view, so inferred shapes never decide certification.
 * - `full`: the stated rules plus the mock's inferred shapes. The mock validates requests with this view.
 * In neither view is `x-inferred-enum` an `enum`: it lists the values the mock issues where the
 * description does not show the value set, and the mock accepts any string there, as the schema that
 * tools read allows (docs/freedoms.md, "Inferred value lists").
 * Both rewrite `#/components/schemas/X` references to absolute ids and drop `x-*` annotations, and
 * both turn a forbidden member spelled `{ not: {} }` (the spec's portable form: some OpenAPI tools
 * reject boolean subschemas) back into the equivalent `false`, so Ajv reports it as before
 * (`false schema`, which the validators turn into "is not allowed here").
 */
import type { JsonSchema } from './openapi.ts';

export type SchemaView = 'stated' | 'full';

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
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
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
