/**
 * The disk cache of compiled schemas (contract/ajv-cache.ts) gives the validators Ajv compiles in
 * memory: for every request body and parameter schema of the spec, in both views and with verbose
 * errors, the cached validator (loaded from its standalone file) accepts and refuses the same values
 * with the same errors, and the request validators' cross-field sentences come through it unchanged.
 */
import { existsSync, readdirSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { arbitraryOf, fc } from '../../contract/arbitraries/valid-values.ts';
import { violations } from '../../contract/arbitraries/violations.ts';
import { loadOperations, type JsonSchema } from '../../contract/openapi.ts';
import { cachedCompiler, freshCachedCompiler, VALIDATOR_CACHE_DIR } from '../../contract/ajv-cache.ts';
import { toView } from '../../contract/schema-view.ts';
import { createSchemaRegistry } from '../../contract/ajv.ts';

const bodies = loadOperations().flatMap((op) =>
  op.requestBody?.schema && op.requestBody.mediaTypes.includes('application/json') ? [{ name: `${op.operationId} body`, schema: op.requestBody.schema }] : []);
const seen = new Set<string>();
const parameters = loadOperations().flatMap((op) => op.parameters.map((p) => ({ name: `${op.operationId} ${p.in} ${p.name}`, schema: p.schema })))
  .filter((p) => !seen.has(JSON.stringify(p.schema)) && seen.add(JSON.stringify(p.schema)));

const asObject = (s: JsonSchema): object => (typeof s === 'boolean' ? (s ? {} : { not: {} }) : s);

for (const view of ['full', 'stated'] as const) {
  test(`cached validators refuse what Ajv in memory refuses, with the same verbose errors (${view} view)`, () => {
    const memory = createSchemaRegistry(view, { verbose: true });
    cachedCompiler(view, { verbose: true }); // the process's own compiler writes the files if absent
    const fresh = freshCachedCompiler(view, { verbose: true });
    let compared = 0;
    for (const t of [...bodies, ...parameters]) {
      const schema = asObject(toView(t.schema, view));
      const inMemory = memory.compile(schema);
      cachedCompiler(view, { verbose: true }).compile(schema);
      const cached = fresh.compile(schema);
      expect(cached, `${t.name}: a distinct function loaded from the cache`).not.toBe(inMemory);
      const valid = t.name.endsWith(' body') ? fc.sample(arbitraryOf(t.schema), { numRuns: 2, seed: 7 }) : [];
      const inputs = [...valid, ...valid.flatMap((v) => violations(t.schema, v).map((x) => x.value)), 'text', 12, null, {}, []];
      for (const input of inputs) {
        expect(cached(input), `${t.name}: ${JSON.stringify(input).slice(0, 200)}`).toBe(inMemory(input));
        expect(cached.errors ?? null, `${t.name}: errors of ${JSON.stringify(input).slice(0, 200)}`).toEqual(inMemory.errors ?? null);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });
}

test('the cache holds one standalone module per compiled schema, keyed by the spec', () => {
  const compiler = cachedCompiler('full');
  compiler.compile({ type: 'object', properties: { probe: { type: 'integer', minimum: 3 } } });
  const dirs = readdirSync(VALIDATOR_CACHE_DIR).filter((d) => d.startsWith('schemas-'));
  expect(dirs.length).toBeGreaterThan(0);
  expect(dirs.some((d) => readdirSync(`${VALIDATOR_CACHE_DIR}/${d}`).some((f) => /^full-[0-9a-f]{24}\.cjs$/.test(f)))).toBe(true);
  expect(existsSync(VALIDATOR_CACHE_DIR)).toBe(true);
});
