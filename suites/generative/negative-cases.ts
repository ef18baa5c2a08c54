/**
 * Negative cases of the generative run (docs/generative.md, "What runs": the negative phase;
 * docs/api-v1.md, Errors): requests that break exactly one constraint of an operation's query
 * parameters, integer path parameters or JSON body, starting from the recipe's valid request, each with
 * the level its broken keyword's provenance gives it (case-provenance.ts).
 */
import { resolve, validatorOf } from '../../contract/arbitraries/schema-resolution.ts';
import { violations, type Violation } from '../../contract/arbitraries/violations.ts';
import type { JsonSchema, Operation } from '../../contract/openapi.ts';
import type { RequestValidator } from '../../contract/validators.ts';
import type { Provenance } from '../../contract/provenance.ts';
import { bodyViolationProvenance, levelOf, parameterViolationProvenance } from './case-provenance.ts';
import type { PreparedRequest } from '../recipes/index.ts';
import type { GenRequest } from './replay.ts';
import { collectProps, pathParams, querySchema, queryStrings, recipeQuery, requestValidator, statesBody } from './request-generation.ts';

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

function replaceSegment(op: Operation, path: string, name: string, value: string): string {
  const index = op.path.split('/').indexOf(`{${name}}`);
  return path.split('/').map((seg, i) => (i === index ? value : seg)).join('/');
}
