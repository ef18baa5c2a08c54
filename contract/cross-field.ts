/**
 * One sentence per failed cross-field rule instead of Ajv's branch-by-branch noise. Ajv reports a
 * failed `oneOf`/`anyOf` as every branch's errors plus "must match exactly one schema in oneOf"; the
 * request validators (validators.ts) rewrite the shapes the spec uses:
 *
 * - member choice: each branch requires one member and forbids the others' (`oneOf`: "must set exactly
 *   one of `asset_id` or `location_id`"; `anyOf`: "must set at least one of `title` or
 *   `workRequestId`"), one error at the object;
 * - discriminated: each branch pins one member to a different `const` (`operation`): the errors of the
 *   branch the value names, or "must be one of `transition` or `replace`" at that member;
 * - `dependentSchemas` forbidding a member beside another: "must not be set together with `asset_id`".
 *
 * Runs on failures only, with Ajv's `verbose` errors (the branches and the data); any other shape, or
 * error list it cannot account for, is left as Ajv wrote it.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';

type Schema = Record<string, unknown>;
type Registry = { getSchema(ref: string): ValidateFunction | undefined; compile(schema: object): ValidateFunction };

const branchValidators = new WeakMap<object, ValidateFunction>();

/** `errors` with each recognised cross-field failure reduced to its sentence. */
export function crossFieldErrors(ajv: Registry, errors: ErrorObject[]): ErrorObject[] {
  try {
    let out = errors;
    for (let i = out.length - 1; i >= 0; i--) {
      const e = out[i]!;
      if ((e.keyword !== 'oneOf' && e.keyword !== 'anyOf') || !Array.isArray(e.schema)) continue;
      const rewritten = rewrite(ajv, e, out.slice(0, i));
      if (!rewritten) continue;
      out = [...out.slice(0, i - rewritten.drop), ...rewritten.errors, ...out.slice(i + 1)];
      i -= rewritten.drop;
    }
    return out.map(dependentMessage);
  } catch {
    return errors; // A shape this reading does not foresee: Ajv's own words rather than a 500.
  }
}

/** The replacement of composite error `e` and how many of the errors before it were its branches'. */
function rewrite(ajv: Registry, e: ErrorObject, before: ErrorObject[]): { drop: number; errors: ErrorObject[] } | undefined {
  const resolved = (e.schema as unknown[]).map((b) => resolve(ajv, b));
  if (resolved.some((b) => b === undefined)) return undefined;
  const branches = resolved.map((b) => b!.schema);
  const validators = resolved.map((b) => b!.validate);
  const data = e.data;
  const own = validators.map((v) => (v(data) ? [] : v.errors ?? []));
  const drop = own.reduce((n, list) => n + list.length, 0);
  // The branches' errors sit right before the composite error; anything else means another layout.
  if (drop > before.length || before.slice(before.length - drop).some((b) => !within(b.instancePath, e.instancePath))) return undefined;
  const at = (pointer: string, message: string): ErrorObject => ({ keyword: e.keyword, instancePath: pointer, schemaPath: e.schemaPath, params: {}, message });

  const members = branches.map(chosenMember);
  if (members.every((m) => m !== undefined)) {
    const names = list(members as string[]);
    return { drop, errors: [at(e.instancePath, e.keyword === 'oneOf' ? `must set exactly one of ${names}` : `must set at least one of ${names}`)] };
  }
  const tag = discriminator(branches);
  if (tag) {
    if (!data || typeof data !== 'object' || Array.isArray(data)) return { drop, errors: [at(e.instancePath, 'must be an object')] };
    const value = (data as Record<string, unknown>)[tag.member];
    const k = tag.values.findIndex((v) => v === value);
    if (k === -1) return { drop, errors: [at(`${e.instancePath}/${tag.member}`, `must be one of ${list(tag.values.map(String))}`)] };
    return { drop, errors: own[k]!.map((b) => ({ ...b, instancePath: e.instancePath + b.instancePath })) };
  }
  return undefined;
}

/** A branch's schema (a lone `$ref` followed) and its validator (compiled once per inline branch). */
function resolve(ajv: Registry, branch: unknown): { schema: Schema; validate: ValidateFunction } | undefined {
  if (!branch || typeof branch !== 'object') return undefined;
  const ref = (branch as Schema).$ref;
  if (typeof ref !== 'string') {
    let validate = branchValidators.get(branch);
    if (!validate) branchValidators.set(branch, (validate = ajv.compile(branch)));
    return { schema: branch as Schema, validate };
  }
  if (Object.keys(branch).length !== 1) return undefined;
  const validate = ajv.getSchema(ref);
  return validate && typeof validate.schema === 'object' ? { schema: validate.schema as Schema, validate } : undefined;
}

/** The one member a member-choice branch requires (`{required: [m], properties: {other: false}}`). */
function chosenMember(b: Schema): string | undefined {
  if (Object.keys(b).some((k) => k !== 'required' && k !== 'properties')) return undefined;
  const required = b.required;
  if (!Array.isArray(required) || required.length !== 1) return undefined;
  const forbidden = Object.values((b.properties ?? {}) as Record<string, unknown>);
  if (!forbidden.every((p) => p === false || (typeof p === 'object' && p !== null && Object.keys(p).length === 1 && JSON.stringify((p as Schema).not) === '{}'))) return undefined;
  return required[0] as string;
}

/** The member every branch pins to its own `const`, with those values in branch order. */
function discriminator(branches: Schema[]): { member: string; values: unknown[] } | undefined {
  const first = (branches[0]!.properties ?? {}) as Record<string, Schema>;
  for (const member of Object.keys(first)) {
    const values = branches.map((b) => ((b.properties ?? {}) as Record<string, Schema | boolean>)[member]).map((p) => (p && typeof p === 'object' && 'const' in p ? p.const : undefined));
    if (values.every((v) => v !== undefined) && new Set(values.map((v) => JSON.stringify(v))).size === values.length) return { member, values };
  }
  return undefined;
}

const DEPENDENT = /\/dependentSchemas\/([^/]+)\/properties\/([^/]+)\/(?:false schema|not)$/;

/** A member `dependentSchemas` forbids beside another, said so. */
function dependentMessage(e: ErrorObject): ErrorObject {
  if (e.keyword !== 'false schema' && e.keyword !== 'not') return e;
  const m = DEPENDENT.exec(e.schemaPath);
  if (!m) return e;
  const [present, forbidden] = [unescape(m[1]!), unescape(m[2]!)];
  return { ...e, keyword: 'dependentSchemas', message: `must not be set together with \`${present}\`: set at most one of \`${present}\` or \`${forbidden}\`` };
}

function unescape(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
}

function within(path: string, parent: string): boolean {
  return path === parent || path.startsWith(`${parent}/`);
}

/** `a`, `b` or `c`. */
function list(names: string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  return quoted.length === 1 ? quoted[0]! : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}
