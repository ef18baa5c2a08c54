/**
 * fast-check arbitraries and single-constraint violations, both derived from the spec's JSON Schemas
 * (2020-12, as spec/openapi.yaml uses it). One source: a schema change changes what is generated.
 *
 * - `arbitraryOf(schema, view)`: values the schema accepts. Covers the keywords the spec's request
 *   schemas use: `$ref` (component schemas), `type` (also unions such as `[string, "null"]`), `enum`,
 *   `const`, `minimum`/`maximum` (and their exclusive forms), `minLength`/`maxLength`, `pattern`
 *   (fc.stringMatching), `format` (date-time, date, email, uri, uuid), `properties`/`required`/
 *   `additionalProperties`/`minProperties`, `items`/`minItems`/`maxItems`/`uniqueItems`, `allOf`,
 *   `anyOf`, `oneOf` (each branch merged into its parent, so `properties: {x: false}` in a branch drops
 *   `x`: the meters' "exactly one of asset_id or location_id") and `dependentSchemas`. Every value is
 *   then checked with the kit's Ajv (`contract/validators.ts`): a value the schema refuses is a
 *   generator bug, thrown with the schema's name, never sent.
 * - `violations(schema, value, view)`: copies of a valid object `value` that each break exactly one
 *   constraint of the schema (type, enum, const, bounds, lengths, pattern, format, required,
 *   additionalProperties, minProperties, items, the oneOf/anyOf/dependentSchemas cross-field rules),
 *   each confirmed invalid by Ajv.
 *
 * The description's rules behind the schemas: Resources and their fields, Endpoints, Errors, Limits.
 */
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { loadOpenApi, type JsonSchema } from './openapi.ts';
import { SCHEMA_BASE, toView, type SchemaView } from './schema-view.ts';
import { cachedCompiler } from './ajv-cache.ts';

type Schema = Record<string, unknown>;

/** Longest string the generator builds (schemas allow 20,000 characters; a few dozen prove as much). */
const MAX_GENERATED_LENGTH = 24;
/** Largest magnitude of an unbounded generated number. */
const NUMBER_SPAN = 1_000_000;

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

const typesOf = (s: Schema): string[] =>
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
function flatten(schema: JsonSchema, view: SchemaView): JsonSchema {
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

/** The branches of a `oneOf`/`anyOf`, each merged with the schema around it. */
function branches(s: Schema, keyword: 'oneOf' | 'anyOf', view: SchemaView): JsonSchema[] {
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

function build(schema: JsonSchema, view: SchemaView): fc.Arbitrary<unknown> {
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

/** One copy of a valid value that breaks one constraint: where, which keyword, the new value. */
export interface Violation {
  /** JSON pointer of the broken member ('' for the whole value). */
  pointer: string;
  /** The broken keyword (`type`, `maxLength`, `oneOf`…), with what it requires. */
  constraint: string;
  value: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON value of a type `types` does not allow (enums and consts count as their values' type). */
function wrongTyped(types: string[]): unknown {
  const candidates: Array<[string[], unknown]> = [
    [['string'], 12345], [['integer', 'number'], 'not-a-number'], [['boolean'], 'not-a-boolean'],
    [['object'], 'not-an-object'], [['array'], 'not-an-array'],
  ];
  for (const [t, v] of candidates) if (t.some((x) => types.includes(x))) {
    const vt = typeof v === 'number' ? 'number' : 'string';
    if (!types.includes(vt) && !(vt === 'number' && types.includes('integer'))) return v;
  }
  return types.includes('string') ? 12345 : 'not-of-the-type';
}

/** Strings breaking `pattern` and nothing else (length kept within bounds), if one is found. */
function patternBreaker(s: Schema): string | undefined {
  const re = new RegExp(s.pattern as string, 'u');
  const length = Math.max((s.minLength as number | undefined) ?? 1, 1);
  return ['!', 'Z', ' ', '/', '\u0001', 'g'].map((c) => c.repeat(length)).find((v) => !re.test(v) && v.length <= ((s.maxLength as number | undefined) ?? Infinity));
}

/** Values breaking one keyword of a leaf (non-object) schema `s`, given a valid `current` value. */
function leafViolations(s: Schema, current: unknown, view: SchemaView): Array<Omit<Violation, 'pointer'>> {
  const out: Array<Omit<Violation, 'pointer'>> = [];
  const types = typesOf(s);
  if ('const' in s) out.push({ constraint: `const ${JSON.stringify(s.const)}`, value: typeof s.const === 'string' ? `${s.const}_not` : 'not-the-constant' });
  if (Array.isArray(s.enum)) {
    const typed = types.length ? types : [...new Set((s.enum as unknown[]).map((e) => (e === null ? 'null' : typeof e)))];
    out.push({ constraint: `enum ${JSON.stringify(s.enum)}`, value: typed.includes('string') ? 'not_a_listed_value' : 987654 });
    if (typed.includes('string')) out.push({ constraint: `type ${typed.join('|')}`, value: wrongTyped(typed) });
  }
  if (types.length) out.push({ constraint: `type ${types.join('|')}`, value: wrongTyped(types) });
  if (types.includes('string') && s.enum === undefined) {
    const min = s.minLength as number | undefined;
    const max = s.maxLength as number | undefined;
    const fill = (n: number) => (s.format === undefined && s.pattern === undefined ? 'x'.repeat(n) : undefined);
    if (min !== undefined && min > 0 && fill(min - 1) !== undefined) out.push({ constraint: `minLength ${min}`, value: fill(min - 1) });
    if (max !== undefined && max < 100_000 && fill(max + 1) !== undefined) out.push({ constraint: `maxLength ${max}`, value: fill(max + 1) });
    if (typeof s.pattern === 'string') {
      const v = patternBreaker(s);
      if (v !== undefined) out.push({ constraint: `pattern ${s.pattern}`, value: v });
    }
    if (s.format === 'date-time' || s.format === 'date') out.push({ constraint: `format ${s.format}`, value: 'not-a-date-time' });
    if (s.format === 'email') out.push({ constraint: 'format email', value: 'not-an-email' });
    if (s.format === 'uri') out.push({ constraint: 'format uri', value: 'not a uri' });
  }
  if (types.includes('integer') || types.includes('number')) {
    if (typeof s.minimum === 'number') out.push({ constraint: `minimum ${s.minimum}`, value: s.minimum - 1 });
    if (typeof s.maximum === 'number') out.push({ constraint: `maximum ${s.maximum}`, value: s.maximum + 1 });
    if (types.includes('integer') && !types.includes('number')) out.push({ constraint: 'type integer (a fraction)', value: (typeof s.minimum === 'number' ? s.minimum : 1) + 0.5 });
  }
  if (types.includes('array')) {
    const item = flatten((s.items as JsonSchema | undefined) ?? true, view);
    const sample = Array.isArray(current) && current.length > 0 ? current : fc.sample(build(item, view), { numRuns: 1, seed: 1 });
    if (typeof s.maxItems === 'number') {
      const n = s.maxItems + 1;
      const many = fc.sample(fc.uniqueArray(build(item, view), { minLength: n, maxLength: n, selector: (v) => JSON.stringify(v) }), { numRuns: 1, seed: 1 })[0];
      if (many) out.push({ constraint: `maxItems ${s.maxItems}`, value: many });
    }
    if (typeof s.minItems === 'number' && s.minItems > 0) out.push({ constraint: `minItems ${s.minItems}`, value: [] });
    if (s.uniqueItems === true && sample.length > 0) out.push({ constraint: 'uniqueItems', value: [sample[0], sample[0]] });
    if (typeof item === 'object') {
      for (const v of leafViolations(item, sample[0], view)) out.push({ constraint: `items: ${v.constraint}`, value: [v.value] });
    }
  }
  return out;
}

/**
 * Copies of the valid value `value` of `schema` (in `view`) that each break exactly one constraint,
 * recursing into object members and the first element of arrays of objects. Every copy is confirmed
 * invalid by Ajv; a candidate Ajv accepts (a union type that allows it) is dropped. Throws when
 * `value` itself is invalid.
 */
export function violations(schema: JsonSchema, value: unknown, view: SchemaView = 'full'): Violation[] {
  const validate = validatorOf(schema, view);
  if (!validate(value)) throw new Error(`violations(${schemaName(schema)}): the starting value is invalid: ${JSON.stringify(validate.errors)}`);
  const out: Violation[] = [];
  collect(flatten(schema, view), value, '', view, (pointer, constraint, set) => {
    const mutated = set(structuredClone(value));
    if (!validate(mutated)) out.push({ pointer, constraint, value: mutated });
  });
  const seen = new Set<string>();
  return out.filter((v) => {
    const key = JSON.stringify([v.pointer, v.value]);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

type Emit = (pointer: string, constraint: string, set: (root: unknown) => unknown) => void;

/** Writes at a JSON pointer of `root` (creating nothing): returns the new root. */
function setAt(root: unknown, pointer: string, change: (parent: Record<string, unknown> | unknown[], key: string) => void): unknown {
  const parts = pointer.split('/').slice(1);
  if (parts.length === 0) return root;
  let node = root as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) node = node[p] as Record<string, unknown>;
  change(node, parts.at(-1)!);
  return root;
}

function collect(s: JsonSchema, value: unknown, pointer: string, view: SchemaView, emit: Emit): void {
  if (typeof s === 'boolean') return;
  const replace = (p: string, v: unknown) => (root: unknown) => (p === '' ? v : setAt(root, p, (parent, k) => { (parent as Record<string, unknown>)[k] = v; }));
  // oneOf/anyOf: violations of the branch the value matches, plus the cross-field rules.
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(s[keyword])) continue;
    const merged = branches(s, keyword, view);
    const matching = merged.find((b) => validatorOf(b, view)(value));
    if (matching !== undefined) collect(matching, value, pointer, view, emit);
    if (isRecord(value)) crossField(s, keyword, merged, value, pointer, view, emit);
    return;
  }
  const types = typesOf(s);
  const objectLike = isRecord(value) && (types.includes('object') || (types.length === 0 && s.properties !== undefined));
  if (!objectLike) {
    for (const v of leafViolations(s, value, view)) emit(pointer, v.constraint, replace(pointer, v.value));
    if (Array.isArray(value) && value.length > 0 && isRecord(value[0])) {
      collect(flatten((s.items as JsonSchema | undefined) ?? true, view), value[0], `${pointer}/0`, view, emit);
    }
    return;
  }
  const obj = value as Record<string, unknown>;
  emit(pointer, 'type object', replace(pointer, [obj]));
  const props = (s.properties ?? {}) as Record<string, JsonSchema>;
  const required = (s.required as string[] | undefined) ?? [];
  for (const name of required) {
    if (name in obj) emit(`${pointer}/${name}`, 'required', (root) => setAt(root, `${pointer}/${name}`, (parent, k) => { delete (parent as Record<string, unknown>)[k]; }));
  }
  if (s.additionalProperties === false) emit(`${pointer}/gen_unknown_member`, 'additionalProperties false', replace(`${pointer}/gen_unknown_member`, 'x'));
  if (typeof s.minProperties === 'number' && required.length === 0) emit(pointer, `minProperties ${s.minProperties}`, replace(pointer, {}));
  for (const [name, p] of Object.entries(props)) {
    if (p === false) continue;
    const ps = flatten(p, view);
    if (typeof ps === 'boolean') continue;
    const child = `${pointer}/${name}`;
    if (name in obj) {
      collect(ps, obj[name], child, view, emit);
    } else {
      // An optional member not sent: sent with a value that breaks one of its own constraints.
      for (const v of leafViolations(ps, undefined, view)) emit(child, v.constraint, replace(child, v.value));
    }
  }
  if (s.dependentSchemas) {
    for (const [key, dep] of Object.entries(s.dependentSchemas as Record<string, Schema>)) {
      if (!(key in obj)) continue;
      for (const [name, p] of Object.entries((dep.properties ?? {}) as Record<string, JsonSchema>)) {
        if (p !== false || name in obj || !props[name]) continue;
        const filler = fc.sample(build(props[name]!, view), { numRuns: 1, seed: 1 })[0];
        emit(`${pointer}/${name}`, `dependentSchemas: ${name} not with ${key}`, replace(`${pointer}/${name}`, filler));
      }
    }
  }
}

/**
 * The cross-field rules of a `oneOf`/`anyOf` whose branches differ by required members (meters:
 * exactly one of asset_id or location_id; work orders: title or workRequestId): none of them sent, and,
 * for oneOf, two of them sent.
 */
function crossField(s: Schema, keyword: 'oneOf' | 'anyOf', merged: JsonSchema[], obj: Record<string, unknown>, pointer: string, view: SchemaView, emit: Emit): void {
  const own = new Set((s.required as string[] | undefined) ?? []);
  const keys = [...new Set(merged.flatMap((b) => (typeof b === 'object' ? ((b.required as string[] | undefined) ?? []) : [])).filter((k) => !own.has(k)))];
  if (keys.length < 2) return;
  const present = keys.filter((k) => k in obj);
  emit(pointer, `${keyword}: one of ${keys.join(', ')} (none sent)`, (root) => {
    const target = pointer === '' ? root : undefined;
    for (const k of present) delete (target as Record<string, unknown>)[k];
    return root;
  });
  if (keyword === 'oneOf' && present.length === 1) {
    const props = (s.properties ?? {}) as Record<string, JsonSchema>;
    for (const k of keys.filter((x) => !present.includes(x) && props[x])) {
      const filler = typeof obj[present[0]!] === 'string' ? obj[present[0]!] : fc.sample(build(props[k]!, view), { numRuns: 1, seed: 1 })[0];
      emit(pointer, `${keyword}: exactly one of ${keys.join(', ')} (${present[0]} and ${k} sent)`, (root) => {
        if (pointer === '') (root as Record<string, unknown>)[k] = filler;
        return root;
      });
    }
  }
}

export { fc };
