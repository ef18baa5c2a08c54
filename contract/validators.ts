/**
 * Ajv validators compiled from spec/openapi.yaml, once, at start-up (never per request).
 *
 * - `createSchemaRegistry(view)`: an Ajv 2020-12 instance with every component schema registered.
 * - `compileRequestValidators(view)`: per operation, a parameter reader (coerces query and path strings
 *   by their schema, then validates) and a body validator, whose cross-field failures read as one
 *   sentence each (cross-field.ts). Used by the mock.
 * - `compileResponseValidators(view)`: per operation and status, body and header validators. Used by
 *   the suite's universal checks.
 */
import { createRequire } from 'node:module';
import type Ajv2020 from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { crossFieldErrors } from './cross-field.ts';
import { loadOpenApi, loadOperations, type JsonSchema, type Operation, type Parameter } from './openapi.ts';
import { cachedCompiler, type SchemaCompiler } from './schema-cache.ts';
import { SCHEMA_BASE, toView, type SchemaView } from './schema-view.ts';

/** One failing field, as named in a `validation_error` problem's `errors` member. */
export interface FieldError {
  in: 'path' | 'query' | 'header' | 'body';
  name?: string;
  pointer?: string;
  message: string;
}

type AjvInstance = InstanceType<typeof Ajv2020>;

/**
 * Ajv 2020 with ajv-formats, loaded on first use: a worker whose validators come from standalone code
 * (contract/validator-cache.ts) never loads Ajv's compiler.
 */
export function newAjv(options: ConstructorParameters<typeof Ajv2020>[0]): AjvInstance {
  const require = createRequire(import.meta.url);
  const Ajv = (require('ajv/dist/2020.js') as { default: typeof Ajv2020 }).default;
  const addFormats = (require('ajv-formats') as { default: (a: AjvInstance) => void }).default;
  const ajv = new Ajv(options);
  addFormats(ajv);
  return ajv;
}

/** The view and options of each registry createSchemaRegistry made (so compiles for it can come from the disk cache). */
const registryViews = new WeakMap<object, { view: SchemaView; verbose: boolean }>();

/**
 * An Ajv instance holding every component schema of the spec in the given view (`verbose`: errors
 * carry their schema and data). It is built on first use: a registry only handed to
 * compileRequestValidator, whose compiles come from the disk cache of its view, never loads Ajv nor
 * checks every component against the meta-schema (0.1–0.2 s of CPU in each process that did).
 */
export function createSchemaRegistry(view: SchemaView, options: { source?: boolean; verbose?: boolean } = {}): AjvInstance {
  let built: AjvInstance | undefined;
  const real = () => (built ??= buildSchemaRegistry(view, options));
  const registry = new Proxy({} as AjvInstance, {
    get: (_target, property) => {
      const r = real();
      const value: unknown = Reflect.get(r, property, r);
      return typeof value === 'function' ? value.bind(r) : value;
    },
    set: (_target, property, value) => Reflect.set(real(), property, value),
    has: (_target, property) => Reflect.has(real(), property),
  });
  registryViews.set(registry, { view, verbose: options.verbose === true });
  return registry;
}

/** The registry itself (createSchemaRegistry builds it on first use). */
function buildSchemaRegistry(view: SchemaView, options: { source?: boolean; verbose?: boolean }): AjvInstance {
  const ajv = newAjv({ strict: true, strictRequired: false, strictTypes: false, allErrors: true, allowUnionTypes: true, validateFormats: true, verbose: options.verbose === true, code: { source: options.source === true } });
  for (const [name, schema] of Object.entries(loadOpenApi().components.schemas)) {
    const viewed = toView(schema, view);
    ajv.addSchema(typeof viewed === 'boolean' ? { $id: SCHEMA_BASE + name } : { ...viewed, $id: SCHEMA_BASE + name });
  }
  return ajv;
}

/**
 * What compiles schemas for `registry`: the disk-cached compiler of its view and options when
 * createSchemaRegistry made it (the same validators, contract/schema-cache.ts), else `registry` itself.
 */
function compilerFor(registry: SchemaCompiler): SchemaCompiler {
  const made = registryViews.get(registry);
  return made ? cachedCompiler(made.view, { verbose: made.verbose }) : registry;
}

/** Converts Ajv errors to field errors, located `in` path, query, header or body. */
export function fieldErrors(errors: ErrorObject[] | null | undefined, location: FieldError['in']): FieldError[] {
  return (errors ?? []).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? `/${(e.params as { additionalProperty: string }).additionalProperty}`
      : e.keyword === 'required' ? `/${(e.params as { missingProperty: string }).missingProperty}` : '';
    const pointer = `${e.instancePath}${extra}`;
    if (e.keyword === 'false schema') return { in: location, pointer: pointer || '/', name: pointer.split('/')[1], message: 'is not allowed here' } as FieldError;
    if (location === 'body') return { in: 'body', pointer: pointer || '/', message: e.message ?? e.keyword };
    const name = pointer.split('/')[1] ?? '';
    return { in: location, name, message: e.message ?? e.keyword };
  });
}

/** Request-side validators of one operation. */
export interface RequestValidator {
  operation: Operation;
  /**
   * Reads and validates path and query parameters. `query` maps a name to every value given for it.
   * Returns the typed values, or the failing fields. Unknown query parameters are ignored.
   */
  readParams(path: Record<string, string>, query: Record<string, string[]>): { values: Record<string, unknown>; errors: FieldError[] };
  /** Validates a parsed JSON body; returns the failing fields (empty when valid). */
  validateBody?: (body: unknown) => FieldError[];
}

function schemaType(schema: JsonSchema): string | undefined {
  if (typeof schema === 'boolean') return undefined;
  const t = schema.type;
  return typeof t === 'string' ? t : Array.isArray(t) ? (t.find((x) => x !== 'null') as string) : undefined;
}

function coerce(raw: string, schema: JsonSchema): unknown {
  switch (schemaType(schema)) {
    case 'integer':
      return /^-?\d{1,16}$/.test(raw) ? Number(raw) : raw;
    case 'number':
      return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    default:
      return raw;
  }
}

function compileParams(ajv: SchemaCompiler, params: Parameter[], view: SchemaView) {
  const byLocation = (where: 'path' | 'query') => {
    const list = params.filter((p) => p.in === where);
    if (list.length === 0) return undefined;
    const schema = {
      type: 'object',
      properties: Object.fromEntries(list.map((p) => [p.name, toView(p.schema, view)])),
      required: list.filter((p) => p.required).map((p) => p.name),
    };
    return { list, validate: ajv.compile(schema) };
  };
  return { path: byLocation('path'), query: byLocation('query') };
}

/**
 * Compiles the request validators of every operation, keyed by operationId; their schemas come from the
 * disk cache of compiled schemas (contract/schema-cache.ts) when it holds them.
 */
export function compileRequestValidators(view: SchemaView = 'full'): Map<string, RequestValidator> {
  const compiler = cachedCompiler(view, { verbose: true });
  return new Map(loadOperations().map((operation) => [operation.operationId, compileRequestValidator(compiler, operation, view)]));
}

/**
 * A path segment percent-decoded, a malformed escape (`%ZZ`) left literal as in the query string
 * (mock/http/query.ts): the value is present and judged by its schema (a string id no record has: 404).
 */
const decodedSegment = (raw: string): string => raw.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
  try { return decodeURIComponent(run); } catch { return run; }
});

/**
 * Compiles one operation's request validator with `ajv`: a registry of `view` (createSchemaRegistry,
 * whose compiles then come from the disk cache of compiled schemas) or a cached compiler of `view`
 * (contract/schema-cache.ts). Cross-field sentences need a verbose one.
 */
export function compileRequestValidator(registry: SchemaCompiler, operation: Operation, view: SchemaView): RequestValidator {
  const ajv = compilerFor(registry);
  const compiled = compileParams(ajv, operation.parameters, view);
  const bodySchema = operation.requestBody?.schema;
  const bodyValidate: ValidateFunction | undefined =
    bodySchema && operation.requestBody?.mediaTypes.includes('application/json') ? ajv.compile(toView(bodySchema, view) as object) : undefined;
  return {
    operation,
    readParams(path, query) {
      const values: Record<string, unknown> = {};
      const errors: FieldError[] = [];
      if (compiled.path) {
        const obj: Record<string, unknown> = {};
        for (const p of compiled.path.list) {
          const raw = path[p.name];
          if (raw === undefined) continue;
          obj[p.name] = coerce(decodedSegment(raw), p.schema);
        }
        if (!compiled.path.validate(obj)) errors.push(...fieldErrors(compiled.path.validate.errors, 'path'));
        Object.assign(values, obj);
      }
      if (compiled.query) {
        const obj: Record<string, unknown> = {};
        for (const p of compiled.query.list) {
          const given = query[p.name];
          if (given === undefined) continue;
          const isArray = schemaType(p.schema) === 'array';
          if (!isArray && given.length > 1) {
            errors.push({ in: 'query', name: p.name, message: 'must be given at most once' });
            continue;
          }
          if (isArray) {
            const items = (p.schema as Record<string, JsonSchema>).items ?? {};
            const parts = p.commaSeparated ? given.flatMap((g) => g.split(',')) : given;
            obj[p.name] = parts.map((v) => coerce(v, items));
          } else {
            obj[p.name] = coerce(given[0]!, p.schema);
          }
        }
        if (!compiled.query.validate(obj)) errors.push(...fieldErrors(compiled.query.validate.errors, 'query'));
        Object.assign(values, obj);
      }
      return { values, errors };
    },
    validateBody: bodyValidate
      ? (body) => (bodyValidate(body) ? [] : fieldErrors(crossFieldErrors(ajv, bodyValidate.errors ?? []), 'body'))
      : undefined,
  };
}

/** Response-side validators of one documented status of one operation. */
export interface ResponseValidator {
  status: number;
  mediaType?: string;
  /** Validates a parsed body; returns Ajv's messages (empty when valid). */
  validateBody?: (body: unknown) => string[];
  /** The same, each error with the JSON pointer of the offending field (a missing property's own pointer). */
  bodyErrors?: (body: unknown) => BodyError[];
  /** Header name (lowercase) → whether required and a validator of its value. */
  headers: Record<string, { required: boolean; validate: (value: string) => string[] }>;
  errorCodes: string[];
}

/** One schema violation of a response body: where (RFC 6901 pointer, `''` for the root) and what. */
export interface BodyError { pointer: string; message: string }

function bodyErrors(v: ValidateFunction): BodyError[] {
  return (v.errors ?? []).map((e) => {
    const p = e.params as { missingProperty?: string; additionalProperty?: string };
    const child = e.keyword === 'required' ? p.missingProperty : e.keyword === 'additionalProperties' ? p.additionalProperty : undefined;
    const pointer = child === undefined ? e.instancePath : `${e.instancePath}/${child.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return { pointer, message: `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${child !== undefined && e.keyword === 'additionalProperties' ? ` (${child})` : ''}` };
  });
}

function messages(v: ValidateFunction): string[] {
  return bodyErrors(v).map((e) => e.message);
}

const responseSchemasOf = new Map<SchemaView, Array<{ operationId: string; status: number; header?: string; schema: object }>>();

/**
 * Every schema the response validators need, in a fixed order: per operation and documented status,
 * the body schema (JSON media types) and each documented header's schema, each in its view. Built
 * once per view and process (every worker needs them; do not change the schemas returned).
 */
export function responseSchemas(view: SchemaView): Array<{ operationId: string; status: number; header?: string; schema: object }> {
  const known = responseSchemasOf.get(view);
  if (known) return known;
  const out: Array<{ operationId: string; status: number; header?: string; schema: object }> = [];
  for (const operation of loadOperations()) {
    const responseView: SchemaView = operation.inferred ? 'stated' : view;
    for (const r of operation.responses) {
      if (r.schema !== undefined && r.mediaType?.includes('json')) out.push({ operationId: operation.operationId, status: r.status, schema: toView(r.schema, responseView) as object });
      for (const [name, h] of Object.entries(r.headers)) out.push({ operationId: operation.operationId, status: r.status, header: name, schema: toView(h.schema, view) as object });
    }
  }
  responseSchemasOf.set(view, out);
  return out;
}

/**
 * Response validators: operationId → status → validator. `compiled` gives the validate functions in
 * the order of `responseSchemas(view)` (e.g. loaded from standalone code, contract/validator-cache.ts);
 * without it they are compiled here.
 */
export function compileResponseValidators(view: SchemaView = 'stated', compiled?: ValidateFunction[]): Map<string, Map<number, ResponseValidator>> {
  const schemas = responseSchemas(view);
  let validate: ValidateFunction[];
  if (compiled) validate = compiled;
  else {
    const ajv = createSchemaRegistry(view);
    validate = schemas.map((s) => ajv.compile(s.schema));
  }
  const index = new Map(schemas.map((s, i) => [`${s.operationId} ${s.status} ${s.header ?? ''}`, validate[i]!]));
  const find = (operationId: string, status: number, header?: string) => index.get(`${operationId} ${status} ${header ?? ''}`);
  const out = new Map<string, Map<number, ResponseValidator>>();
  for (const operation of loadOperations()) {
    const byStatus = new Map<number, ResponseValidator>();
    for (const r of operation.responses) {
      const body = r.schema !== undefined && r.mediaType?.includes('json') ? find(operation.operationId, r.status) : undefined;
      const headers: ResponseValidator['headers'] = {};
      for (const [name, h] of Object.entries(r.headers)) {
        const v = find(operation.operationId, r.status, name)!;
        headers[name] = { required: h.required, validate: (value) => (v(coerce(value, h.schema)) ? [] : messages(v)) };
      }
      byStatus.set(r.status, {
        status: r.status,
        mediaType: r.mediaType,
        validateBody: body ? (b) => (body(b) ? [] : messages(body)) : undefined,
        bodyErrors: body ? (b) => (body(b) ? [] : bodyErrors(body)) : undefined,
        headers,
        errorCodes: r.errorCodes,
      });
    }
    out.set(operation.operationId, byStatus);
  }
  return out;
}
