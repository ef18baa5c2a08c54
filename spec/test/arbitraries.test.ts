/**
 * The spec-derived arbitraries (contract/arbitraries/) against the kit's Ajv as oracle: every value
 * generated for a request body or a path/query parameter of any operation validates against its
 * schema, in both views; every violation of a valid value is refused. A failure names the schema.
 */
import { test, expect } from '@playwright/test';
import { validatorOf } from '../../contract/arbitraries/schema-resolution.ts';
import { arbitraryOf, fc } from '../../contract/arbitraries/valid-values.ts';
import { violations } from '../../contract/arbitraries/violations.ts';
import { loadOperations, type JsonSchema, type Operation } from '../../contract/openapi.ts';

const operationById = (id: string): Operation => loadOperations().find((o) => o.operationId === id)!;

const SAMPLES = Number(process.env.FC_RUNS ?? 40);
const SEED = Number(process.env.FC_SEED ?? 4242);

interface Target { name: string; schema: JsonSchema }

const targets: Target[] = loadOperations().flatMap((op) => [
  ...op.parameters.filter((p) => p.in === 'path' || p.in === 'query').map((p) => ({ name: `${op.operationId} ${p.in} ${p.name}`, schema: p.schema })),
  ...(op.requestBody?.schema && op.requestBody.mediaTypes.includes('application/json') ? [{ name: `${op.operationId} body`, schema: op.requestBody.schema }] : []),
]);

test('every request schema of the spec has a generator', () => {
  expect(targets.length).toBeGreaterThan(100);
  for (const t of targets) expect(() => arbitraryOf(t.schema), t.name).not.toThrow();
});

for (const view of ['full', 'stated'] as const) {
  test(`generated values validate against their schema (${view} view)`, () => {
    for (const t of targets) {
      const validate = validatorOf(t.schema, view);
      const values = fc.sample(arbitraryOf(t.schema, 'full'), { numRuns: SAMPLES, seed: SEED });
      for (const v of values) {
        expect(validate(v), `${t.name}: ${JSON.stringify(v).slice(0, 300)} — ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    }
  });
}

test('generated meter creates carry exactly one of asset_id and location_id, both kinds occurring', () => {
  const values = fc.sample(arbitraryOf(operationById('createMeter').requestBody!.schema!), { numRuns: 60, seed: SEED }) as Array<Record<string, unknown>>;
  for (const v of values) expect(Number('asset_id' in v) + Number('location_id' in v), JSON.stringify(v)).toBe(1);
  expect(values.some((v) => 'asset_id' in v)).toBe(true);
  expect(values.some((v) => 'location_id' in v)).toBe(true);
});

test('every violation of a valid body is refused by the schema, and the stated cross-field rules are among them', () => {
  let count = 0;
  for (const t of targets.filter((x) => x.name.endsWith(' body'))) {
    const validate = validatorOf(t.schema, 'full');
    for (const start of fc.sample(arbitraryOf(t.schema), { numRuns: 5, seed: SEED })) {
      for (const v of violations(t.schema, start)) {
        count++;
        expect(validate(v.value), `${t.name} ${v.pointer} ${v.constraint}`).toBe(false);
      }
    }
  }
  expect(count).toBeGreaterThan(200);
  const meter = violations(operationById('createMeter').requestBody!.schema!, { name: 'm', asset_id: 'a1' }).map((v) => v.constraint);
  expect(meter.some((c) => c.includes('asset_id and location_id sent'))).toBe(true);
  expect(meter.some((c) => c.includes('none sent'))).toBe(true);
  const expense = violations(operationById('createWorkOrderExpense').requestBody!.schema!, { user_id: 'u', type: 'labor', amount_minor: 0 }).map((v) => `${v.pointer} ${v.constraint}`);
  for (const c of ['/amount_minor minimum 0', '/amount_minor maximum 2147483647', '/type enum ["labor","travel","other"]', '/user_id required', '/gen_unknown_member additionalProperties false', '/description maxLength 5000']) {
    expect(expense, c).toContain(c);
  }
});
