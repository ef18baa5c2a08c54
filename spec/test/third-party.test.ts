/**
 * The spec reads cleanly in third-party OpenAPI tools, not only in the kit's own loader
 * (docs/maintainers.md, "The specification"): `@apidevtools/swagger-parser` validates it offline, and it avoids
 * the constructs Optic's strict mode refuses or warns on (boolean subschemas, untyped problem variants).
 */
import { test, expect } from '@playwright/test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { loadOpenApi } from '../../contract/openapi.ts';
import { OPENAPI_FILE } from '../../contract/paths.ts';

const OFFLINE = { resolve: { external: false } } as const;

test('swagger-parser validates the spec offline (OpenAPI 3.1 schema and its own checks)', async () => {
  const api = (await SwaggerParser.validate(OPENAPI_FILE, OFFLINE)) as { openapi: string; paths: Record<string, unknown> };
  expect(api.openapi).toBe('3.1.0');
  expect(Object.keys(api.paths).length).toBeGreaterThanOrEqual(31);
});

test('swagger-parser refuses what it refused before: a description on a server variable', async () => {
  const doc = structuredClone(loadOpenApi()) as unknown as { servers: Array<{ variables?: Record<string, Record<string, unknown>> }> };
  const withVariable = doc.servers.find((s) => s.variables)!;
  for (const v of Object.values(withVariable.variables!)) v.description = 'not accepted by swagger-parser';
  await expect(SwaggerParser.validate(doc as never, OFFLINE)).rejects.toThrow(/variables/);
});

/** Every schema position holding a boolean other than additionalProperties/unevaluated*: JSON paths. */
function booleanSubschemas(node: unknown, path: string, inSchema: boolean, out: string[]): string[] {
  if (typeof node === 'boolean') {
    if (inSchema) out.push(path);
    return out;
  }
  if (node === null || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    node.forEach((v, i) => booleanSubschemas(v, `${path}/${i}`, false, out));
    return out;
  }
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}/${key}`;
    if (['properties', 'patternProperties', 'dependentSchemas', '$defs'].includes(key) && value && typeof value === 'object') {
      for (const [name, s] of Object.entries(value)) booleanSubschemas(s, `${at}/${name}`, true, out);
    } else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(key) && Array.isArray(value)) {
      value.forEach((s, i) => booleanSubschemas(s, `${at}/${i}`, true, out));
    } else if (['items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'schema'].includes(key)) {
      booleanSubschemas(value, at, true, out);
    } else {
      booleanSubschemas(value, at, false, out);
    }
  }
  return out;
}

test('no boolean subschema (Optic strict refuses them): a forbidden member is spelled `not: {}`', () => {
  const doc = loadOpenApi();
  expect(booleanSubschemas(doc, '#', false, [])).toEqual([]);
  // The walker finds one when there is one.
  expect(booleanSubschemas({ components: { schemas: { X: { properties: { a: false } } } } }, '#', false, [])).toEqual(['#/components/schemas/X/properties/a']);
});

test('every problem-details allOf variant states `type: object`', () => {
  const doc = loadOpenApi() as unknown as { components: { responses: Record<string, { content?: Record<string, { schema?: { allOf?: Array<Record<string, unknown>> } }> }> } };
  let seen = 0;
  for (const [name, r] of Object.entries(doc.components.responses)) {
    const schema = r.content?.['application/problem+json']?.schema;
    for (const member of schema?.allOf ?? []) {
      if (member.$ref) continue;
      seen++;
      expect(member.type, `${name}: problem variant`).toBe('object');
    }
  }
  expect(seen).toBeGreaterThanOrEqual(15);
});
