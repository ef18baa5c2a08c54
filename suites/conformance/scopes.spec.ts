/**
 * The exact-scope check (Authentication 6–7: "Every endpoint requires one exact scope. A write scope does
 * not imply its read scope."): every operation is sent, as its recipe builds it (or as it is, when it
 * needs no input), with
 * - a key holding every scope but its own (`keys.allScopesExcept.<scope>`): one request finds any
 *   mapping error on any pair — if another scope Y granted the operation, the key holding Y gets through.
 *   Only when it gets through are the single-scope keys tried, to name the scope that leaks. A profile
 *   without those keys falls back to the full single-scope matrix (every other single-scope key; a third
 *   of them with MMS_SCOPE_MATRIX=sample, lib/operations.ts otherScopesToTry);
 * - the write scope of a read's own family alone (write does not imply read);
 * - a key with no scopes;
 * - its own single-scope key, which gets past the scope check.
 *
 * Beside them, before the own scope's test, the operation's tenant check (What the service does;
 * Authentication; TENANT-001, TENANT-005 when inferred): sent with another organization's key, a path
 * that names one of ours answers 404 — on every operation whose path names a record (`/customfields/{entity}`
 * names none). It lives here, not in tenant.spec.ts, because it is one more refusal of the same prepared
 * request: in the operation's describe it always runs in the worker that prepared it.
 *
 * An operation's tests run in order in one worker (describe mode `default`) and share one prepared
 * request, the worker's (lib/prepared-cache.ts `workerPrepared`, shared with operations-requests.spec.ts
 * and the negative phase): a refused request changes nothing, so one setup serves them all; a request
 * that was not refused spoils it, and the next test prepares its own. The own scope's test takes it: it
 * puts it back after a read's expected success (a safe method changes nothing), never after a write's; a
 * create's success shares the record it made.
 */
import { test, expect } from '../fixtures.ts';
import { expectProblem, problemOf } from '../lib/expect-problem.ts';
import { expectSucceeded } from '../lib/expect-success.ts';
import { need } from '../lib/needs.ts';
import { SCOPE_REQUIREMENT, namesRecord, operations, otherScopesToTry, scopes } from '../lib/operations.ts';
import { workerPrepared as prepared } from '../lib/prepared-cache.ts';
import { RECIPES, recipeOf, sendPrepared, settleTaken, type PreparedRequest, type RecipeContext } from '../recipes/index.ts';
import type { Roles } from '../fixtures.ts';
import type { ApiResponse } from '../lib/client.ts';
import type { Operation } from '../../contract/openapi.ts';

/** Operations whose request body the description does not show: the profile's `bodies.*` may supply it. */
const INFERRED_BODIES = { createMeter: true, createMeterReading: true, createWorkOrder: true, createCompatWorkOrder: true } as const;

const refusedForScope = (r: ApiResponse) => r.status === 403 && problemOf(r)?.code === 'insufficient_scope';

/**
 * The single scopes that get `op` through: every other single-scope key sent with the prepared request
 * (follow-up of a failed all-but-one request; costs requests only on failure). Empty when the profile
 * lacks any single-scope key.
 */
async function leakingScopes(as: Roles, op: Operation, request: PreparedRequest, keys: Record<string, string> | undefined): Promise<string[]> {
  const others = scopes.filter((s) => s !== op.scope);
  if (!others.every((s) => keys?.[s])) return [];
  const leaks: string[] = [];
  for (const other of others) if (!refusedForScope(await sendPrepared(as.scope(other), request))) leaks.push(other);
  return leaks;
}

/**
 * Each operation's check is split by the rule each key proves, so that a deviation on one kind of key
 * fails only its own requirement: the own scope (SCOPE-001 and the scope's own grant), every other
 * scope (SCOPE-002), the write scope of a read's own family (SCOPE-002 and SCOPE-003) and the key with
 * no scopes (SCOPE-004). Inferred operations carry SCOPE-005 only.
 */
const matrixOps = operations;
for (const [index, op] of matrixOps.entries()) {
  const isRead = op.scope.endsWith(':read');
  const sameFamilyWrite = isRead ? op.scope.replace(/:read$/, ':write') : undefined;
  const tagged = (tags: string[]) => (op.inferred ? ['@SCOPE-005'] : tags);
  const prepare = (ctx: RecipeContext) => prepared.get(op.operationId, (records) => recipeOf(op)({ ...ctx, records }));
  const name = `${op.operationId} (${op.method} ${op.path})`;

  test.describe(name, () => {
    // In order, in one worker: the refused tests share one prepared request; the own scope's test, last, may consume it.
    test.describe.configure({ mode: 'default' });

    test(`${name} is refused to every other scope`, { tag: tagged(['@SCOPE-002']) }, async ({ api, profile, as }) => {
      const allBut = profile.keys.allScopesExcept?.[op.scope];
      if (allBut) {
        const request = await prepare({ api, profile });
        const r = await sendPrepared(as.key(allBut), request);
        if (refusedForScope(r)) return expectProblem(r, 403, 'insufficient_scope');
        prepared.spoil(op.operationId);
        const leaks = await leakingScopes(as, op, request, profile.keys.scopes);
        const named = leaks.length ? `; granted by the single scope${leaks.length > 1 ? 's' : ''} ${leaks.join(', ')}` : '';
        expect.soft(r.status, `${op.operationId} with every scope but ${op.scope}${named}: ${r.text.slice(0, 300)}`).toBe(403);
        if (r.status === 403) expectProblem(r, 403, 'insufficient_scope');
        return;
      }
      // Fallback (no all-but-one keys in the profile): every other single-scope key.
      for (const s of scopes) need(profile, `keys.scopes.${s}`);
      const request = await prepare({ api, profile });
      for (const other of otherScopesToTry(op, index).filter((s) => s !== sameFamilyWrite)) {
        const r = await sendPrepared(as.scope(other), request);
        if (!refusedForScope(r)) prepared.spoil(op.operationId);
        expect.soft(r.status, `${op.operationId} with only ${other}`).toBe(403);
        if (r.status === 403) expectProblem(r, 403, 'insufficient_scope');
      }
    });

    if (sameFamilyWrite && scopes.includes(sameFamilyWrite)) {
      test(`${name} is refused to ${sameFamilyWrite} (write does not imply read)`, { tag: tagged(['@SCOPE-002', '@SCOPE-003']) }, async ({ api, profile, as }) => {
        need(profile, `keys.scopes.${sameFamilyWrite}`);
        const request = await prepare({ api, profile });
        const r = await sendPrepared(as.scope(sameFamilyWrite), request);
        if (!refusedForScope(r)) prepared.spoil(op.operationId);
        expect.soft(r.status, `${op.operationId} with only ${sameFamilyWrite}`).toBe(403);
        if (r.status === 403) expectProblem(r, 403, 'insufficient_scope');
      });
    }

    test(`${name} is refused to a key with no scopes`, { tag: tagged(['@SCOPE-004']) }, async ({ api, profile, as }) => {
      need(profile, 'keys.noScopes');
      const request = await prepare({ api, profile });
      const r = await sendPrepared(as.role('keys.noScopes'), request);
      if (!refusedForScope(r)) prepared.spoil(op.operationId);
      expectProblem(r, 403, 'insufficient_scope');
    });

    if (namesRecord(op) && RECIPES[op.operationId]) {
      test(`${op.operationId}: another organization's id answers 404`, { tag: [op.inferred ? '@TENANT-005' : '@TENANT-001'] }, async ({ api, profile, as }) => {
        const foreign = as.otherOrg();
        const request = await prepare({ api, profile });
        const r = await sendPrepared(foreign, request);
        // Not refused with 404: another organization's key may have changed or removed the record.
        if (r.status !== 404) prepared.spoil(op.operationId);
        expectProblem(r, 404);
      });
    }

    test(`${name} gets past the scope check with exactly ${op.scope}`, { tag: tagged(['@SCOPE-001', ...(SCOPE_REQUIREMENT[op.scope] ? [`@${SCOPE_REQUIREMENT[op.scope]}`] : [])]) }, async ({ api, profile, as }) => {
      need(profile, `keys.scopes.${op.scope}`);
      // Last of the operation's tests: it may consume the record, so the request leaves the cache; a
      // read's expected success puts it back for the worker's next users (safe methods, lib/prepared-cache.ts).
      const request = await prepared.take(op.operationId, (records) => recipeOf(op)({ api, profile, records }));
      const own = await sendPrepared(as.scope(op.scope), request);
      settleTaken(prepared, op.operationId, request, own);
      // A body the description does not show (and the profile does not supply) cannot decide a must
      // requirement: getting past the scope check is then any answer but 401/403, not a success.
      const bodyInferred = request.inferredBody !== undefined || (op.operationId in INFERRED_BODIES && !profile.bodies[op.operationId as keyof typeof profile.bodies]);
      if (bodyInferred) expect([401, 403], `${op.operationId} with only ${op.scope} got past the scope check: ${own.text.slice(0, 300)}`).not.toContain(own.status);
      // Past the scope check is a success; which success (201, 200, 204) is SPEC-007's.
      else expectSucceeded(own, `${op.operationId} with only ${op.scope}`);
    });
  });
}
