/**
 * The spec's examples (docs/maintainers.md, "The specification"): example-driven tools (Dredd, Portman, Prism's
 * static mock) send and answer the spec's examples, so each one must satisfy its schema, and every
 * request body and every required parameter must have one. Examples are checked with the kit's own
 * Ajv (contract/validators.ts) in the `full` view, the one the mock validates requests with, so an
 * example of an `x-inferred` body also follows the mock's inferred shape.
 */
import { test, expect } from '@playwright/test';
import { loadOpenApi, type JsonSchema } from '../../contract/openapi.ts';
import { createSchemaRegistry } from '../../contract/ajv.ts';
import { toView } from '../../contract/schema-view.ts';

type Node = Record<string, unknown>;
type Doc = { paths: Record<string, Node>; components: Record<string, Record<string, Node>> };

/** One example found in the spec: where it is, the schema it must satisfy, and its value. */
interface Found {
  operationId: string;
  where: string;
  schema: JsonSchema;
  value: unknown;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
/** Request bodies whose media type a YAML string cannot carry (binary images): no example required. */
const BINARY_BODY = /^image\//;

function deref(doc: Doc, node: unknown): Node {
  let n = node as Node;
  while (typeof n?.$ref === 'string' && !(n.$ref as string).includes('/schemas/')) {
    const [, , kind, name] = (n.$ref as string).split('/');
    n = doc.components[kind!]![name!]!;
  }
  return n;
}

/** The examples a media-type, parameter or header object holds (`example`, and each `examples` value). */
function examplesOf(node: Node): Array<{ name: string; value: unknown }> {
  const out: Array<{ name: string; value: unknown }> = [];
  if ('example' in node) out.push({ name: 'example', value: node.example });
  for (const [name, ex] of Object.entries((node.examples as Record<string, Node> | undefined) ?? {})) {
    if ('value' in ex) out.push({ name: `examples.${name}`, value: ex.value });
  }
  return out;
}

/**
 * Every example of every operation (parameters, request bodies, response bodies and headers), and
 * what is missing: a request body (other than a binary image) or a required parameter without one.
 */
function collect(doc: Doc): { found: Found[]; missing: string[] } {
  const found: Found[] = [];
  const missing: string[] = [];
  for (const item of Object.values(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method] as Node | undefined;
      if (!op) continue;
      const id = op.operationId as string;
      const params = [...((item.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])].map((p) => deref(doc, p));
      for (const p of params) {
        const exs = examplesOf(p);
        if (p.required === true && exs.length === 0) missing.push(`${id}: ${p.in} parameter ${p.name as string}`);
        for (const ex of exs) found.push({ operationId: id, where: `${p.in} parameter ${p.name as string} ${ex.name}`, schema: p.schema as JsonSchema, value: ex.value });
      }
      if (op.requestBody) {
        const body = deref(doc, op.requestBody);
        for (const [mediaType, media] of Object.entries(body.content as Record<string, Node>)) {
          const exs = examplesOf(media);
          if (exs.length === 0 && !BINARY_BODY.test(mediaType)) missing.push(`${id}: request body ${mediaType}`);
          for (const ex of exs) found.push({ operationId: id, where: `request body ${mediaType} ${ex.name}`, schema: media.schema as JsonSchema, value: ex.value });
        }
      }
      for (const [status, r] of Object.entries(op.responses as Record<string, unknown>)) {
        const res = deref(doc, r);
        for (const [mediaType, media] of Object.entries((res.content as Record<string, Node> | undefined) ?? {})) {
          for (const ex of examplesOf(media)) found.push({ operationId: id, where: `${status} ${mediaType} ${ex.name}`, schema: media.schema as JsonSchema, value: ex.value });
        }
        for (const [name, h] of Object.entries((res.headers as Record<string, unknown> | undefined) ?? {})) {
          const header = deref(doc, h);
          for (const ex of examplesOf(header)) found.push({ operationId: id, where: `${status} header ${name} ${ex.name}`, schema: header.schema as JsonSchema, value: ex.value });
        }
      }
    }
  }
  return { found, missing };
}

const ajv = createSchemaRegistry('full');
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

/** Each example that does not satisfy its schema, as `operationId: where: Ajv's messages`. */
function invalid(found: Found[]): string[] {
  const out: string[] = [];
  for (const f of found) {
    const key = JSON.stringify(f.schema);
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = ajv.compile(toView(f.schema, 'full') as object)));
    if (!validate(f.value)) {
      out.push(`${f.operationId}: ${f.where}: ${(validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ')}`);
    }
  }
  return out;
}

test('every example satisfies its schema (the mock\'s full view)', () => {
  const { found } = collect(loadOpenApi() as unknown as Doc);
  expect(found.length).toBeGreaterThanOrEqual(60);
  expect(invalid(found)).toEqual([]);
});

test('every request body and every required parameter has an example', () => {
  const { missing } = collect(loadOpenApi() as unknown as Doc);
  expect(missing).toEqual([]);
});

test('the check names the operation and example that does not validate, and what lacks one', () => {
  const doc = structuredClone(loadOpenApi()) as unknown as Doc;
  const media = ((doc.paths['/meters']!.post as Node).requestBody as Node).content as Record<string, Node>;
  media['application/json']!.example = { name: 'Both', asset_id: 'ast_1', location_id: 'loc_1' };
  const bad = invalid(collect(doc).found);
  expect(bad).toHaveLength(1);
  expect(bad[0]).toMatch(/^createMeter: request body application\/json example: /);
  delete media['application/json']!.example;
  delete doc.components.parameters!.Id!.example;
  const { missing } = collect(doc);
  expect(missing).toContain('createMeter: request body application/json');
  expect(missing).toContain('getMeter: path parameter id');
});
