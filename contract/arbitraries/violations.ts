/**
 * Single-constraint violations derived from the spec's JSON Schemas (docs/generative.md, "What runs":
 * the negative phase). `violations(schema, value, view)` gives copies of a valid object `value` that
 * each break exactly one constraint of the schema (type, enum, const, bounds, lengths, pattern, format,
 * required, additionalProperties, minProperties, items, the oneOf/anyOf/dependentSchemas cross-field
 * rules), each confirmed invalid by the kit's Ajv (schema-resolution.ts `validatorOf`).
 *
 * The description's rules behind the schemas: Resources and their fields, Endpoints, Errors, Limits.
 */
import fc from 'fast-check';
import type { JsonSchema } from '../openapi.ts';
import type { SchemaView } from '../schema-view.ts';
import { branches, flatten, schemaName, typesOf, validatorOf, type Schema } from './schema-resolution.ts';
import { build } from './valid-values.ts';

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
