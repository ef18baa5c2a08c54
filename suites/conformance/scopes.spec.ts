/**
 * The exact-scope matrix (Authentication 6–7): every operation is sent, as its recipe builds it (or as
 * it is, when it needs no input), with its own single-scope key, every other single-scope key
 * (lib/operations.ts otherScopesToTry; a third of them with MMS_SCOPE_MATRIX=sample) and a key with no
 * scopes; only its own scope gets past the scope check. A
 * write scope never implies read.
 */
import { test, expect } from '../fixtures.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { need } from '../lib/needs.ts';
import { SCOPE_REQUIREMENT, operations, otherScopesToTry, scopes } from '../lib/operations.ts';
import { recipeOf, sendPrepared, type RecipeContext } from '../recipes/index.ts';

/** Operations whose request body the description does not show: the profile's `bodies.*` may supply it. */
const INFERRED_BODIES = { createMeter: true, createMeterReading: true, createWorkOrder: true, createCompatWorkOrder: true } as const;

/**
 * Each operation's matrix is split by the rule each key proves, so that a deviation on one kind of key
 * fails only its own requirement: the own scope (SCOPE-001 and the scope's own grant), every other
 * single scope tried (SCOPE-002), the write scope of a read's own family (SCOPE-002 and SCOPE-003) and the
 * key with no scopes (SCOPE-004). Inferred operations carry SCOPE-005 only.
 */
const matrixOps = operations.filter((o) => recipeOf(o));
for (const [index, op] of matrixOps.entries()) {
  const isRead = op.scope.endsWith(':read');
  const sameFamilyWrite = isRead ? op.scope.replace(/:read$/, ':write') : undefined;
  const tagged = (tags: string[]) => (op.inferred ? ['@SCOPE-005'] : tags);
  const prepare = async ({ api, profile }: RecipeContext) => {
    for (const s of scopes) need(profile, `keys.scopes.${s}`);
    need(profile, 'keys.noScopes');
    return recipeOf(op)!({ api, profile });
  };
  const name = `${op.operationId} (${op.method} ${op.path})`;

  test(`${name} is refused to the other single scopes`, { tag: tagged(['@SCOPE-002']) }, async ({ api, profile, as }) => {
    const prepared = await prepare({ api, profile });
    for (const other of otherScopesToTry(op, index).filter((s) => s !== sameFamilyWrite)) {
      const r = await sendPrepared(as.scope(other), prepared);
      expect.soft(r.status, `${op.operationId} with only ${other}`).toBe(403);
      if (r.status === 403) expectProblem(r, 403, 'insufficient_scope');
    }
  });

  if (sameFamilyWrite && scopes.includes(sameFamilyWrite)) {
    test(`${name} is refused to ${sameFamilyWrite} (write does not imply read)`, { tag: tagged(['@SCOPE-002', '@SCOPE-003']) }, async ({ api, profile, as }) => {
      const prepared = await prepare({ api, profile });
      const r = await sendPrepared(as.scope(sameFamilyWrite), prepared);
      expect.soft(r.status, `${op.operationId} with only ${sameFamilyWrite}`).toBe(403);
      if (r.status === 403) expectProblem(r, 403, 'insufficient_scope');
    });
  }

  test(`${name} is refused to a key with no scopes`, { tag: tagged(['@SCOPE-004']) }, async ({ api, profile, as }) => {
    const prepared = await prepare({ api, profile });
    expectProblem(await sendPrepared(as.role('keys.noScopes'), prepared), 403, 'insufficient_scope');
  });

  test(`${name} gets past the scope check with exactly ${op.scope}`, { tag: tagged(['@SCOPE-001', ...(SCOPE_REQUIREMENT[op.scope] ? [`@${SCOPE_REQUIREMENT[op.scope]}`] : [])]) }, async ({ api, profile, as }) => {
    const prepared = await prepare({ api, profile });
    const own = await sendPrepared(as.scope(op.scope), prepared);
    // A body the description does not show (and the profile does not supply) cannot decide a must
    // requirement: getting past the scope check is then any answer but 401/403, not a success.
    const bodyInferred = prepared.inferredBody !== undefined || (op.operationId in INFERRED_BODIES && !profile.bodies[op.operationId as keyof typeof profile.bodies]);
    if (bodyInferred) expect([401, 403], `${op.operationId} with only ${op.scope} got past the scope check: ${own.text.slice(0, 300)}`).not.toContain(own.status);
    else expect(own.status, `${op.operationId} with only ${op.scope}: ${own.text.slice(0, 300)}`).toBe(prepared.expect);
  });
}
