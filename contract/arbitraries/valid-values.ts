/**
 * fast-check arbitraries of the values the spec's JSON Schemas accept (docs/generative.md, "What
 * runs"). One source: a schema change changes what is generated.
 *
 * `arbitraryOf(schema, view)` covers the keywords the spec's request schemas use: `$ref` (component
 * schemas), `type` (also unions such as `[string, "null"]`), `enum`, `const`, `minimum`/`maximum` (and
 * their exclusive forms), `minLength`/`maxLength`, `pattern` (fc.stringMatching), `format` (date-time,
 * date, email, uri, uuid), `properties`/`required`/`additionalProperties`/`minProperties`,
 * `items`/`minItems`/`maxItems`/`uniqueItems`, `allOf`, `anyOf`, `oneOf` (each branch merged into its
 * parent, so `properties: {x: false}` in a branch drops `x`: the meters' "exactly one of asset_id or
 * location_id") and `dependentSchemas`. Every value is then checked with the kit's Ajv
 * (schema-resolution.ts `validatorOf`): a value the schema refuses is a generator bug, thrown with the
 * schema's name, never sent. `arbitraryWithPins` does the same with some members fixed.
 *
 * The description's rules behind the schemas: Resources and their fields, Endpoints, Errors, Limits.
 */
import fc from 'fast-check';
import type { JsonSchema } from '../openapi.ts';
import type { SchemaView } from '../schema-view.ts';
import { branches, flatten, schemaName, typesOf, validatorOf, type Schema } from './schema-resolution.ts';

/** Longest string the generator builds (schemas allow 20,000 characters; a few dozen prove as much). */
const MAX_GENERATED_LENGTH = 24;
/** Largest magnitude of an unbounded generated number. */
const NUMBER_SPAN = 1_000_000;

function stringArbitrary(s: Schema): fc.Arbitrary<string> {
  const minLength = (s.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((s.maxLength as number | undefined) ?? Infinity, minLength + MAX_GENERATED_LENGTH);
  const fits = (v: string) => [...v].length >= minLength && [...v].length <= ((s.maxLength as number | undefined) ?? Infinity);
  switch (s.format) {
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'uri':
      return fc.webUrl().filter(fits);
    case 'uuid':
      return fc.uuid();
    default:
      break;
  }
  if (typeof s.pattern === 'string') {
    return fc.stringMatching(new RegExp(s.pattern, 'u')).filter(fits);
  }
  // Printable ASCII that is not blank: servers may trim, and an all-space string proves nothing more.
  return fc.string({ minLength, maxLength }).filter((v) => minLength === 0 || v.trim().length > 0);
}

function numberArbitrary(s: Schema, integer: boolean): fc.Arbitrary<number> {
  let min = s.minimum as number | undefined;
  let max = s.maximum as number | undefined;
  const step = integer ? 1 : 1e-6;
  if (typeof s.exclusiveMinimum === 'number') min = Math.max(min ?? -Infinity, s.exclusiveMinimum + step);
  if (typeof s.exclusiveMaximum === 'number') max = Math.min(max ?? Infinity, s.exclusiveMaximum - step);
  min ??= max !== undefined ? max - NUMBER_SPAN : -NUMBER_SPAN;
  max ??= min + 2 * NUMBER_SPAN;
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.oneof(
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)),
  );
}

function objectArbitrary(s: Schema, view: SchemaView): fc.Arbitrary<Record<string, unknown>> {
  const props = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>).filter(([, p]) => p !== false);
  const required = new Set((s.required as string[] | undefined) ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, p] of props) model[name] = build(p, view);
  for (const name of required) if (!(name in model)) model[name] = fc.oneof(fc.string(), fc.integer(), fc.boolean());
  let arb: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
  const extra = s.additionalProperties;
  if (props.length === 0 && extra !== undefined && extra !== false) {
    const values = build(extra as JsonSchema, view);
    arb = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k.trim() === k && k.length > 0), values, { maxKeys: 2 });
  }
  const minProperties = (s.minProperties as number | undefined) ?? 0;
  if (minProperties > 0) arb = arb.filter((o) => Object.keys(o).length >= minProperties);
  return arb;
}

function arrayArbitrary(s: Schema, view: SchemaView): fc.Arbitrary<unknown[]> {
  const items = build((s.items as JsonSchema | undefined) ?? true, view);
  const minLength = (s.minItems as number | undefined) ?? 0;
  const maxLength = Math.min((s.maxItems as number | undefined) ?? Infinity, minLength + 3);
  return s.uniqueItems === true
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
    : fc.array(items, { minLength, maxLength });
}

/** An arbitrary of values `schema` accepts in `view`, unchecked (`arbitraryOf` checks them with Ajv). */
export function build(schema: JsonSchema, view: SchemaView): fc.Arbitrary<unknown> {
  const s = flatten(schema, view);
  if (s === true) return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
  if (s === false) throw new Error('no value satisfies the schema `false`');
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[keyword])) return fc.oneof(...branches(s, keyword, view).map((b) => build(b, view)));
  }
  const types = typesOf(s);
  const byType = (t: string): fc.Arbitrary<unknown> => {
    switch (t) {
      case 'string': return stringArbitrary(s);
      case 'integer': return numberArbitrary(s, true);
      case 'number': return numberArbitrary(s, false);
      case 'boolean': return fc.boolean();
      case 'null': return fc.constant(null);
      case 'array': return arrayArbitrary(s, view);
      case 'object': return objectArbitrary(s, view);
      default: throw new Error(`unsupported type ${t}`);
    }
  };
  if (types.length === 0) return s.properties ? byType('object') : s.items ? byType('array') : build(true, view);
  let arb = types.length === 1 ? byType(types[0]!) : fc.oneof(...types.map(byType));
  if (s.dependentSchemas) {
    const deps = s.dependentSchemas as Record<string, Schema>;
    arb = arb.map((v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
      const o = { ...(v as Record<string, unknown>) };
      for (const [key, dep] of Object.entries(deps)) {
        if (!(key in o)) continue;
        for (const [name, p] of Object.entries((dep.properties ?? {}) as Record<string, JsonSchema>)) if (p === false) delete o[name];
      }
      return o;
    });
  }
  return arb;
}

/**
 * An arbitrary of values `schema` accepts in `view` ('full' by default: the stated rules and the
 * inferred ones, so the values suit the stated view too). Throws when the schema uses a keyword the
 * converter cannot satisfy; every generated value is checked by Ajv and a refused one throws an Error
 * naming the schema and the Ajv errors.
 */
export function arbitraryOf(schema: JsonSchema, view: SchemaView = 'full'): fc.Arbitrary<unknown> {
  const validate = validatorOf(schema, view);
  return build(schema, view).map((value) => {
    if (!validate(value)) {
      throw new Error(`arbitraryOf(${schemaName(schema)}) generated a value its schema refuses: ${JSON.stringify(value)} — ${JSON.stringify(validate.errors)}`);
    }
    return value;
  });
}

/**
 * An arbitrary of the object schema `schema` with some root members pinned: a pinned value is always
 * sent as given, a member pinned to `undefined` is never sent (branches of oneOf/anyOf that require it
 * are dropped). For members whose valid values depend on the server's state (references to existing
 * records, server-issued versions). Throws as `arbitraryOf` does, or when the pins leave no valid value.
 */
export function arbitraryWithPins(schema: JsonSchema, view: SchemaView, pins: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const s = flatten(schema, view);
  if (typeof s === 'boolean') throw new Error(`arbitraryWithPins(${schemaName(schema)}): not an object schema`);
  const pinProps: Record<string, JsonSchema> = {};
  for (const [k, v] of Object.entries(pins)) pinProps[k] = v === undefined ? false : { const: v };
  const pinned = pinAll(s, pinProps);
  const validate = validatorOf(schema, view);
  return build(pinned, view).map((value) => {
    if (!validate(value)) throw new Error(`arbitraryWithPins(${schemaName(schema)}) generated a value its schema refuses: ${JSON.stringify(value)} — ${JSON.stringify(validate.errors)}`);
    return value as Record<string, unknown>;
  });
}

/** `s` with `pins` overriding its properties, also inside its oneOf/anyOf branches. */
function pinAll(s: Schema, pins: Record<string, JsonSchema>): Schema {
  const out: Schema = { ...s, properties: { ...((s.properties ?? {}) as Record<string, JsonSchema>), ...pins } };
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(s[keyword])) continue;
    out[keyword] = (s[keyword] as JsonSchema[]).map((m) => {
      if (typeof m === 'boolean' || m.$ref !== undefined) return m;
      const props = (m.properties ?? {}) as Record<string, JsonSchema>;
      const kept = Object.fromEntries(Object.entries(props).filter(([k]) => !(k in pins) || pins[k] === false));
      return { ...m, properties: { ...kept, ...Object.fromEntries(Object.keys(pins).filter((k) => k in props && pins[k] !== false).map((k) => [k, pins[k]!])) } };
    });
  }
  return out;
}

export { fc };
