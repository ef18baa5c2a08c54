/**
 * Request validators compiled from spec/openapi.yaml, once, at start-up (never per request): per
 * operation, a parameter reader (coerces query and path strings by their schema, then validates) and a
 * body validator, whose cross-field failures read as one sentence each (cross-field.ts). Used by the
 * mock and the proxy; their schemas come from the disk cache of compiled schemas (contract/ajv-cache.ts).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { registryView } from './ajv.ts';
import { cachedCompiler, type SchemaCompiler } from './ajv-cache.ts';
import { crossFieldErrors } from './cross-field.ts';
import { loadOperations, type JsonSchema, type Operation, type Parameter } from './openapi.ts';
import { toView, type SchemaView } from './schema-view.ts';

/** One failing field, as named in a `validation_error` problem's `errors` member. */
export interface FieldError {
  in: 'path' | 'query' | 'header' | 'body';
  name?: string;
  pointer?: string;
  message: string;
}

/**
 * What compiles schemas for `registry`: the disk-cached compiler of its view and options when
 * createSchemaRegistry made it (the same validators), else `registry` itself.
 */
function compilerFor(registry: SchemaCompiler): SchemaCompiler {
  const made = registryView(registry);
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

/** A query or path string as its schema's type reads it (an integer, a number, a boolean), else as it is. */
export function coerce(raw: string, schema: JsonSchema): unknown {
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
      // An inferred parameter (`x-inferred` on the parameter) is an inferred node to the `unbounded` view.
      properties: Object.fromEntries(list.map((p) => [p.name, toView(view === 'unbounded' && p.inferred && typeof p.schema === 'object' ? { ...p.schema, 'x-inferred': true } : p.schema, view)])),
      required: list.filter((p) => p.required).map((p) => p.name),
    };
    return { list, validate: ajv.compile(schema) };
  };
  return { path: byLocation('path'), query: byLocation('query') };
}

/**
 * Compiles the request validators of every operation, keyed by operationId; their schemas come from the
 * disk cache of compiled schemas (contract/ajv-cache.ts) when it holds them.
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
 * (contract/ajv-cache.ts). Cross-field sentences need a verbose one.
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

