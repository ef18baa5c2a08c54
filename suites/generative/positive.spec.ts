/**
 * Generative positive phase (Endpoints; Errors; Resources and their fields): for every operation with a
 * recipe, `genBudget()` requests generated from the spec's schemas — valid query parameters and bodies
 * on the recipe's real records, a full-scope live key — each answer a status the operation documents,
 * never a 5xx, and pass the universal checks (schema-valid body, documented headers: a failed check
 * throws from the client and fails the run); a generated request the same as one already sent is not sent
 * again (an operation with no input to vary sends one). Inputs the description states are generated apart
 * (`must`) from the inferred ones (`inferred`). Creates read back with the values they were sent.
 */
import { proves } from '../lib/proves.ts';
import { test, expect } from '../fixtures.ts';
import type { Operation } from '../../contract/openapi.ts';
import { fc } from '../../contract/arbitraries/valid-values.ts';
import { genBudget, genParameters, genSeed, requestDigest } from './run-parameters.ts';
import { OPERATIONS, viewsDiffer, requestArbitrary, send } from './request-generation.ts';
import { reproducible, type GenRequest } from './replay.ts';
import { recipeOf } from '../recipes/index.ts';
import { runSettings } from '../lib/settings.ts';

/** Whether generating with the inferred rules differs from the stated ones (an inferred input exists). */
function hasInferredInputs(op: Operation): boolean {
  return op.parameters.some((p) => p.in === 'query' && p.inferred) || (op.requestBody?.schema !== undefined && viewsDiffer(op.requestBody.schema));
}

for (const op of OPERATIONS) {
  const recipe = recipeOf(op);
  const levels = op.inferred ? (['inferred'] as const) : hasInferredInputs(op) ? (['must', 'inferred'] as const) : (['must'] as const);
  for (const level of levels) {
    const title = `${op.operationId}: generated valid requests${level === 'inferred' ? ' (with inferred inputs)' : ''} get a documented status, never 5xx`;
    const tag = level === 'must' ? ['@GEN', '@SPEC-001', '@SPEC-004'] : ['@GEN', '@SPEC-005', '@GEN-003'];
    test(title, { tag }, async ({ api, profile }) => {
      const seed = genSeed();
      const prepared = await recipe({ api, profile });
      const documented = [...op.responses.map((r) => r.status), 429];
      const seen: number[] = [];
      const sent: GenRequest[] = [];
      const sentKeys = new Set<string>();
      let repeats = 0;
      await fc.assert(
        fc.asyncProperty(requestArbitrary(op, prepared, level === 'must' ? 'stated' : 'full'), (r) =>
          reproducible(seed, profile.baseUrl, r, `${op.operationId} generated valid request`, async () => {
            // A request the same as one already sent (an operation with nothing left to generate) proves nothing more.
            const key = r.raw ? undefined : JSON.stringify([r.method, r.path, r.query, r.json ?? null]);
            if (key !== undefined && sentKeys.has(key)) {
              repeats++;
              return;
            }
            if (key !== undefined) sentKeys.add(key);
            const res = await send(api, r);
            seen.push(res.status);
            sent.push(r);
            expect(res.status, proves(['SPEC-004'], `${op.operationId}: no 5xx — ${res.text.slice(0, 300)}`)).toBeLessThan(500);
            expect(documented, proves([level === 'must' ? 'SPEC-001' : 'SPEC-005'], `${op.operationId}: ${res.status} is documented — ${res.text.slice(0, 300)}`)).toContain(res.status);
          })),
        genParameters(seed),
      );
      const summary = `${op.operationId} statuses: ${seen.join(', ')}; requests digest ${requestDigest(sent)}`;
      test.info().annotations.push({ type: 'generative', description: summary });
      process.stdout.write(`${summary}\n`);
      // A replay (FC_PATH) sends the one case it names.
      if (!runSettings().path) expect(seen.length + repeats, 'every generated request was sent or repeated one sent').toBe(genBudget());
    });
  }
}

/** The resource a create or read answered: `{data}`, a one-resource wrapper (`{workOrder}`), or the body. */
function resourceOf(body: unknown): Record<string, unknown> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.data === 'object' && b.data !== null && !Array.isArray(b.data)) return b.data as Record<string, unknown>;
  if ('id' in b) return b;
  const wrapped = Object.values(b).filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v) && 'id' in v);
  return wrapped.length === 1 ? (wrapped[0] as Record<string, unknown>) : undefined;
}

/** Equal as JSON values; date-time strings compare by instant (a server may normalise the text). */
function sameValue(a: unknown, b: unknown): boolean {
  const iso = /^\d{4}-\d{2}-\d{2}T/;
  if (typeof a === 'string' && typeof b === 'string' && iso.test(a) && iso.test(b)) return Date.parse(a) === Date.parse(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Members a documented rule transforms on create (Resources and their fields › Work order: "`NONE`
 * creates native priority `medium`"), not compared.
 */
const TRANSFORMED: Record<string, string[]> = { createCompatWorkOrder: ['priority'] };

for (const op of OPERATIONS.filter((o) => o.method === 'POST')) {
  const reader = OPERATIONS.find((g) => g.method === 'GET' && g.path === `${op.path}/{id}`);
  if (!reader || !op.requestBody?.mediaTypes.includes('application/json')) continue;
  test(`${op.operationId}: generated creates read back through ${reader.operationId} with the values sent`, { tag: ['@GEN', '@GEN-001'] }, async ({ api, profile }) => {
    const seed = genSeed();
    const prepared = await recipeOf(op)({ api, profile });
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(requestArbitrary(op, prepared, 'full'), (r) =>
        reproducible(seed, profile.baseUrl, r, `${op.operationId} generated create`, async () => {
          const created = await send(api, r);
          expect(created.status, `${op.operationId}: ${created.text.slice(0, 300)}`).toBeLessThan(500);
          if (created.status >= 300) return;
          const resource = resourceOf(created.body);
          expect(resource?.id, `${op.operationId} answers the created resource with its id`).toBeDefined();
          const read = await api.get(`${r.path}/${encodeURIComponent(String(resource!.id))}`);
          expect(read.status, `${reader.operationId} of the created ${String(resource!.id)}`).toBe(200);
          const found = resourceOf(read.body)!;
          for (const [key, value] of Object.entries((r.json ?? {}) as Record<string, unknown>)) {
            if (!(key in found) || TRANSFORMED[op.operationId]?.includes(key)) continue;
            compared++;
            expect(sameValue(found[key], value), `${key} reads back as sent: sent ${JSON.stringify(value)}, read ${JSON.stringify(found[key])}`).toBe(true);
          }
        })),
      genParameters(seed),
    );
    expect(compared, `${op.operationId}: at least one sent field was read back`).toBeGreaterThan(0);
  });
}
