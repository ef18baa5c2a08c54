/**
 * Generative negative phase (Errors: "400 validation_error — query, JSON, filename or field validation
 * failed"; Limits; Resources and their fields): for every operation that documents 400, requests that
 * break exactly ONE constraint of the spec's schemas — type, enum, const, bounds, lengths, pattern,
 * format, required, additionalProperties, minProperties, items, and the cross-field rules the schemas
 * encode (meters: exactly one of asset_id or location_id) — starting from the recipe's valid request,
 * each answer 400 `validation_error` problem details and change nothing (the record's read before and
 * after, where the operation's own path has a read). Constraints the description states are `must`;
 * inferred ones are tested apart. `genBudget()` cases per operation and level, chosen by the seed.
 *
 * An operation's tests run in order in one worker (an anonymous describe of mode `default`) and share one
 * prepared request, the worker's (lib/prepared-cache.ts `workerPrepared`, shared with the scope check and
 * operations-requests.spec.ts): a request refused with 400 changes nothing, so the record one recipe made
 * serves the operation's other levels and its change-nothing test (and a read's record kept by the files
 * before); a test in which a request was not refused spoils it, and the next test prepares its own. The
 * change-nothing test judges the requests its 400 test just sent (that test reads the record before them,
 * and the change-nothing test borrows that read and reads once more after); when that test ran elsewhere
 * or a request of it was not refused, it sends the requests again between its own two reads.
 */
import { test, expect } from '../fixtures.ts';
import type { ApiResponse } from '../lib/client.ts';
import { placeholderPath } from '../lib/operations.ts';
import { problemOf } from '../lib/expect-problem.ts';
import { notAssessed } from '../lib/needs.ts';
import { workerPrepared as preparedCache } from '../lib/prepared-cache.ts';
import { borrow, runningTest } from '../lib/response-samples.ts';
import { arbitraryOf, fc } from '../../contract/arbitraries/valid-values.ts';
import { genBudget, genSeed, pick } from './run-parameters.ts';
import { OPERATIONS, send } from './request-generation.ts';
import { negativeCases } from './negative-cases.ts';
import { NEGATIVE_REQUIREMENTS } from './case-provenance.ts';
import { reproducible } from './replay.ts';
import { recipeOf } from '../recipes/index.ts';

const tagsOf = (ids: readonly string[]) => ['@GEN', ...ids.map((id) => `@${id}`)];

const stripMeta = (body: unknown) => {
  if (typeof body !== 'object' || body === null) return body;
  const { meta: _meta, ...rest } = body as Record<string, unknown>;
  return rest;
};

function expectValidationError(res: ApiResponse, input: string): void {
  expect(res.status, `${input}: expected 400 validation_error, got ${res.status} ${res.text.slice(0, 300)}`).toBe(400);
  // Content type and problem `status` are every error's (ERR-001, ERR-004: universal checks), not this case's.
  expect(problemOf(res)?.code, `${input}: problem code`).toBe('validation_error');
}

/**
 * What an operation's 400 test saw, for the change-nothing test after it in the same worker: the
 * record's read before its requests, and whether every one of them was refused with 400 — then that
 * test judges the same requests by reading the record once more, instead of sending them again.
 */
interface RefusedRun {
  path: string;
  before: ApiResponse;
  sentBy: string;
  allRefused: boolean;
}
const refusedRuns = new Map<string, RefusedRun>();

for (const op of OPERATIONS) {
  const recipeOfOp = recipeOf(op);
  if (!op.responses.some((r) => r.status === 400)) continue;
  const recipe: typeof recipeOfOp = (ctx) => preparedCache.get(op.operationId, (records) => recipeOfOp({ ...ctx, records }));
  // Which levels have cases, judged on a placeholder request (the real one comes from the recipe).
  const jsonBody = op.requestBody?.schema && op.requestBody.mediaTypes.includes('application/json') ? op.requestBody.schema : undefined;
  const sample = {
    method: op.method, path: placeholderPath(op).replace(/placeholder_\w+/g, 'x'), expect: 0,
    options: jsonBody ? { json: fc.sample(arbitraryOf(jsonBody), { numRuns: 1, seed: 1 })[0] } : undefined,
  };
  const levels = (['must', 'inferred'] as const).filter((l) => negativeCases(op, sample).some((c) => c.level === l));
  // Only the operation's own record (a path with `{id}`): a collection other tests write to would race.
  const read = op.method !== 'GET' && op.path.includes('{id}') ? OPERATIONS.find((g) => g.method === 'GET' && g.path === op.path) : undefined;
  // In order, in one worker: the tests of the operation share its prepared request.
  test.describe(() => {
    test.describe.configure({ mode: 'default' });
    for (const level of levels) {
      if (op.inferred && level === 'must') continue;
      const title = `${op.operationId}: a request breaking one ${level === 'must' ? 'stated' : 'inferred'} constraint answers 400 validation_error`;
      // The level is the cases' (read from provenance): an inferred case fails inferred requirements only.
      const tag = tagsOf(NEGATIVE_REQUIREMENTS[level].refused);
      test(title, { tag }, async ({ api, profile }) => {
        const seed = genSeed();
        const prepared = await recipe({ api, profile });
        const all = negativeCases(op, prepared).filter((c) => c.level === level);
        expect(all.length, `${op.operationId} has ${level} constraints to break`).toBeGreaterThan(0);
        const chosen = pick(all, genBudget(), seed);
        // The change-nothing test after this one judges these very requests: the read before them is taken here.
        const run: RefusedRun | undefined = read ? { path: prepared.path, before: await api.get(prepared.path), sentBy: runningTest(), allRefused: false } : undefined;
        if (run) refusedRuns.set(`${op.operationId} ${level}`, run);
        for (const c of chosen) {
          await reproducible(seed, profile.baseUrl, c.request, `${op.operationId} with ${c.input}`, async () => {
            const res = await send(api, c.request);
            if (res.status !== 400) preparedCache.spoil(op.operationId);
            expectValidationError(res, `${op.operationId} with ${c.input}`);
          });
        }
        if (run) run.allRefused = chosen.length > 0;
        test.info().annotations.push({ type: 'generative', description: `${op.operationId} ${chosen.length} of ${all.length} ${level} cases: ${chosen.map((c) => `${c.input} [${c.provenance.level === 'stated' ? `${c.provenance.section}: "${c.provenance.quote.slice(0, 120)}"` : c.provenance.reason}]`).join('; ')}` });
      });
      if (!read) continue;
      // Apart from the 400 itself (ERR-006, GEN-004): only the refusals that did answer 400 are judged here.
      const changeTag = tagsOf(NEGATIVE_REQUIREMENTS[level].unchanged);
      test(`${op.operationId}: a request refused for one ${level === 'must' ? 'stated' : 'inferred'} constraint changes nothing`, { tag: changeTag }, async ({ api, profile }) => {
        const seed = genSeed();
        const prepared = await recipe({ api, profile });
        const earlier = refusedRuns.get(`${op.operationId} ${level}`);
        refusedRuns.delete(`${op.operationId} ${level}`);
        if (earlier?.allRefused && earlier.path === prepared.path && earlier.before.status === 200) {
          // The 400 test just before, in this worker, sent the same requests on this record and every one was refused.
          const before = borrow(api.session, earlier.before, earlier.sentBy);
          const after = await api.get(prepared.path);
          const same = JSON.stringify(stripMeta(after.body)) === JSON.stringify(stripMeta(before.body));
          if (!same) preparedCache.spoil(op.operationId);
          expect(stripMeta(after.body), `${read.operationId} after the refused requests of the test before equals the read before them (seed=${seed})`).toEqual(stripMeta(before.body));
          return;
        }
        const chosen = pick(negativeCases(op, prepared).filter((c) => c.level === level), genBudget(), seed);
        const before = await api.get(prepared.path);
        if (before.status !== 200) {
          // The record is not readable as its recipe left it: no later test of the worker builds on it.
          preparedCache.spoil(op.operationId);
          notAssessed(`precondition not met: GET ${prepared.path} answered ${before.status}`);
        }
        let refused = 0;
        for (const c of chosen) {
          if ((await send(api, c.request)).status === 400) refused++;
          else preparedCache.spoil(op.operationId);
        }
        if (refused === 0) notAssessed(`precondition not met: none of the ${chosen.length} requests was refused with 400`);
        const after = await api.get(prepared.path);
        const same = JSON.stringify(stripMeta(after.body)) === JSON.stringify(stripMeta(before.body));
        if (!same) preparedCache.spoil(op.operationId);
        expect(stripMeta(after.body), `${read.operationId} after ${refused} refused requests equals the read before them (seed=${seed})`).toEqual(stripMeta(before.body));
      });
    }
  });
}
