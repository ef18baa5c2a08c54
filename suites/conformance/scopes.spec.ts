/**
 * The exact-scope matrix (Authentication 6–7): every operation is sent, as its recipe builds it (or as
 * it is, when it needs no input), with each single-scope key of the profile and a key with no scopes;
 * only its own scope gets past the scope check. A write scope never implies read.
 */
import { test, expect } from '../fixtures.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { need } from '../lib/needs.ts';
import { SCOPE_REQUIREMENT, operations, scopes } from '../lib/operations.ts';
import { recipeOf, sendPrepared } from '../recipes/index.ts';

/** Operations whose request body the description does not show: the profile's `bodies.*` may supply it. */
const INFERRED_BODIES = { createMeter: true, createMeterReading: true, createWorkOrder: true, createCompatWorkOrder: true } as const;

for (const op of operations.filter((o) => recipeOf(o))) {
  const isRead = op.scope.endsWith(':read');
  const tags = op.inferred
    ? ['@SCOPE-005']
    : ['@SCOPE-001', '@SCOPE-002', '@SCOPE-004', ...(SCOPE_REQUIREMENT[op.scope] ? [`@${SCOPE_REQUIREMENT[op.scope]}`] : []), ...(isRead ? ['@SCOPE-003'] : [])];
  test(`${op.operationId} (${op.method} ${op.path}) needs exactly ${op.scope}`, { tag: tags }, async ({ api, profile, as }) => {
    for (const s of scopes) need(profile, `keys.scopes.${s}`);
    need(profile, 'keys.noScopes');
    const prepared = await recipeOf(op)!({ api, profile });
    const send = (client: typeof api) => sendPrepared(client, prepared);
    for (const other of scopes.filter((s) => s !== op.scope)) {
      const r = await send(as.scope(other));
      expect.soft(r.status, `${op.operationId} with only ${other}`).toBe(403);
      if (r.status === 403) expectProblem(r, 403, 'insufficient_scope');
    }
    expectProblem(await send(as.role('keys.noScopes')), 403, 'insufficient_scope');
    const own = await send(as.scope(op.scope));
    // A body the description does not show (and the profile does not supply) cannot decide a must
    // requirement: getting past the scope check is then any answer but 401/403, not a success.
    const bodyInferred = prepared.inferredBody !== undefined || (op.operationId in INFERRED_BODIES && !profile.bodies[op.operationId as keyof typeof profile.bodies]);
    if (bodyInferred) expect([401, 403], `${op.operationId} with only ${op.scope} got past the scope check: ${own.text.slice(0, 300)}`).not.toContain(own.status);
    else expect(own.status, `${op.operationId} with only ${op.scope}: ${own.text.slice(0, 300)}`).toBe(prepared.expect);
  });
}
