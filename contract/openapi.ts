/**
 * The operation model of spec/openapi.yaml, parsed once per process; the parsed document is kept as
 * JSON in node_modules/.cache/mms-conformance keyed by the YAML's hash, so a Playwright worker starts
 * without parsing YAML (docs/design.md §5).
 *
 * Every consumer (the mock's router and validators, the suite's checks, the scope matrix) reads the
 * API's operations from here, so the spec stays the one source of truth.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CACHE_DIR, writeCacheFile } from './cache-file.ts';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { OPENAPI_FILE } from './paths.ts';

/** A feature module of the API (Authentication › module requirements). */
/** The operation ids of spec/openapi.yaml, as openapi-typescript generated them (`npm run types`). */
export type OperationId = keyof import('../spec/generated/api.ts').operations;

export type Module = 'parts_inventory' | 'meters' | 'requests' | 'request_portals';
export const MODULES: readonly Module[] = ['parts_inventory', 'meters', 'requests', 'request_portals'];

export type JsonSchema = Record<string, unknown> | boolean;

/** A parameter of an operation, with its (unresolved) schema. */
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
  /** `style: form, explode: false` arrays: comma-separated values. */
  commaSeparated: boolean;
  inferred: boolean;
}

/** A documented response: its status, media type and schema, and its documented headers. */
export interface ResponseSpec {
  status: number;
  mediaType?: string;
  schema?: JsonSchema;
  headers: Record<string, { required: boolean; schema: JsonSchema }>;
  /** Problem-details codes the description documents for this response (`x-error-codes`). */
  errorCodes: string[];
  /** The response's OpenAPI links (contract/links.ts evaluates their runtime expressions). */
  links: LinkSpec[];
}

/**
 * An OpenAPI link of a response: the operation it leads to, its path parameters as runtime expressions
 * (`$response.body#/data/id`, `$request.path.id`) and the body members it sets (`{workRequestId: …}`).
 */
export interface LinkSpec {
  name: string;
  operationId: OperationId;
  parameters: Record<string, string>;
  requestBody?: Record<string, string>;
}

/** `x-module-of-entity`: the module follows an entity named by a parameter or body field. */
export interface ModuleOfEntity {
  in: 'path' | 'query' | 'body';
  name: string;
  modules: Record<string, Module>;
}

/** One operation of the API. */
export interface Operation {
  operationId: OperationId;
  method: string;
  /** Path template relative to the `/v1` base, e.g. `/meters/{id}`. */
  path: string;
  tag: string;
  /** The one scope the operation requires. */
  scope: string;
  module?: Module;
  moduleOfEntity?: ModuleOfEntity;
  /** Stays available when its module is disabled (`x-module-exempt`). */
  moduleExempt: boolean;
  /** The route, method or body is not shown by the description (`x-inferred`). */
  inferred: boolean;
  parameters: Parameter[];
  requestBody?: { required: boolean; mediaTypes: string[]; schema?: JsonSchema };
  responses: ResponseSpec[];
}

export interface OpenApiDocument {
  openapi: string;
  info: { version: string; title: string };
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, JsonSchema>;
    parameters: Record<string, Record<string, unknown>>;
    responses: Record<string, Record<string, unknown>>;
    headers: Record<string, Record<string, unknown>>;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

let cached: { doc: OpenApiDocument; operations: Operation[] } | undefined;

/** The parsed spec document (cached). Throws if spec/openapi.yaml cannot be read or parsed. */
export function loadOpenApi(): OpenApiDocument {
  return load().doc;
}

/** Every operation of the spec, in document order (cached). */
export function loadOperations(): Operation[] {
  return load().operations;
}

/** All scopes the API defines (`x-scopes` of the ApiKey scheme), in document order. */
export function loadScopes(): string[] {
  const scheme = loadOpenApi().components.securitySchemes.ApiKey as { 'x-scopes': Record<string, string> };
  return Object.keys(scheme['x-scopes']);
}

/** The YAML text parsed, from the JSON cache when present (written on a miss; best effort). */
function parseCached(text: string): unknown {
  const file = resolve(CACHE_DIR, `openapi-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // yaml is loaded only on a miss: a worker of a warm tree never pays for its ~70 modules.
    const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
    const doc = parse(text);
    try {
      writeCacheFile(file, JSON.stringify(doc));
    } catch {
      /* a read-only tree: parse every time */
    }
    return doc;
  }
}

function load(): { doc: OpenApiDocument; operations: Operation[] } {
  if (cached) return cached;
  const doc = parseCached(readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiDocument;
  cached = { doc, operations: buildOperations(doc) };
  return cached;
}

function deref<T>(doc: OpenApiDocument, node: unknown): T {
  let current = node as Record<string, unknown>;
  while (current && typeof current.$ref === 'string' && current.$ref.startsWith('#/components/') && !current.$ref.includes('/schemas/')) {
    const [, , kind, name] = current.$ref.split('/');
    current = (doc.components as unknown as Record<string, Record<string, Record<string, unknown>>>)[kind!]![name!]!;
  }
  return current as T;
}

function buildOperations(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const shared = ((item.parameters as unknown[]) ?? []).map((p) => deref<Record<string, unknown>>(doc, p));
    for (const method of METHODS) {
      const raw = item[method] as Record<string, unknown> | undefined;
      if (!raw) continue;
      const own = ((raw.parameters as unknown[]) ?? []).map((p) => deref<Record<string, unknown>>(doc, p));
      const params = [...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)), ...own];
      const security = raw.security as Array<Record<string, string[]>>;
      const body = raw.requestBody ? deref<Record<string, unknown>>(doc, raw.requestBody) : undefined;
      const bodyContent = (body?.content ?? {}) as Record<string, { schema?: JsonSchema }>;
      ops.push({
        operationId: raw.operationId as OperationId,
        method: method.toUpperCase(),
        path,
        tag: ((raw.tags as string[]) ?? [])[0] ?? '',
        scope: security[0]!.ApiKey![0]!,
        module: raw['x-module'] as Module | undefined,
        moduleOfEntity: raw['x-module-of-entity'] as ModuleOfEntity | undefined,
        moduleExempt: raw['x-module-exempt'] === true,
        inferred: raw['x-inferred'] === true || ((raw['x-inferred-keywords'] as unknown[]) ?? []).includes('method'),
        parameters: params.map((p) => ({
          name: p.name as string,
          in: p.in as Parameter['in'],
          required: p.required === true,
          schema: (p.schema ?? {}) as JsonSchema,
          commaSeparated: p.style === 'form' && p.explode === false,
          inferred: p['x-inferred'] === true,
        })),
        requestBody: body
          ? {
              required: body.required === true,
              mediaTypes: Object.keys(bodyContent),
              schema: Object.values(bodyContent)[0]?.schema,
            }
          : undefined,
        responses: Object.entries(raw.responses as Record<string, unknown>).map(([status, r]) => {
          const res = deref<Record<string, unknown>>(doc, r);
          const content = (res.content ?? {}) as Record<string, { schema?: JsonSchema }>;
          const mediaType = Object.keys(content)[0];
          const headers: ResponseSpec['headers'] = {};
          for (const [name, h] of Object.entries((res.headers ?? {}) as Record<string, unknown>)) {
            const header = deref<Record<string, unknown>>(doc, h);
            headers[name.toLowerCase()] = { required: header.required === true, schema: (header.schema ?? {}) as JsonSchema };
          }
          return {
            status: Number(status),
            mediaType,
            schema: mediaType ? content[mediaType]!.schema : undefined,
            headers,
            errorCodes: (res['x-error-codes'] as string[]) ?? [],
            links: Object.entries((res.links ?? {}) as Record<string, Record<string, unknown>>).map(([name, l]) => ({
              name,
              operationId: l.operationId as OperationId,
              parameters: (l.parameters ?? {}) as Record<string, string>,
              requestBody: l.requestBody as Record<string, string> | undefined,
            })),
          };
        }),
      });
    }
  }
  return ops;
}
