/**
 * Response validators from spec/openapi.yaml (docs/design.md §5): per operation and documented status,
 * body and header validators, used by the universal checks (contract/checks/). Compiled once, as one
 * standalone module in the disk cache (contract/ajv-cache.ts): every later worker only loads it.
 */
import { readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { createSchemaRegistry } from './ajv.ts';
import { cachedStandalone, standaloneSource } from './ajv-cache.ts';
import { loadOperations } from './openapi.ts';
import { OPENAPI_FILE } from './paths.ts';
import { toView, type SchemaView } from './schema-view.ts';
import { coerce } from './validators.ts';

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
 * the order of `responseSchemas(view)` (e.g. loaded from standalone code, cachedResponseValidators);
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

/** Generates the standalone module's source: exports `v0`…`vN` in the order of `responseSchemas(view)`. */
export function standaloneValidators(view: SchemaView): string {
  const ajv = createSchemaRegistry(view, { source: true });
  const exports: Record<string, string> = {};
  responseSchemas(view).forEach((s, i) => {
    const id = `urn:mms:response:${i}`;
    ajv.addSchema({ ...s.schema, $id: id });
    exports[`v${i}`] = id;
  });
  return standaloneSource(ajv, exports);
}

/** The response validators (as compileResponseValidators), loaded from the cache, generating it if absent. */
export function cachedResponseValidators(view: SchemaView = 'stated'): Map<string, Map<number, ResponseValidator>> {
  try {
    const module = cachedStandalone(`validators-${view}`, [readFileSync(OPENAPI_FILE), `${view} `], () => standaloneValidators(view));
    const count = responseSchemas(view).length;
    return compileResponseValidators(view, Array.from({ length: count }, (_, i) => module[`v${i}`]!));
  } catch {
    return compileResponseValidators(view);
  }
}

