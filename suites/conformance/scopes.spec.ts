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
    expect(own.status, `${op.operationId} with only ${op.scope}: ${own.text.slice(0, 300)}`).toBe(prepared.expect);
  });
}
