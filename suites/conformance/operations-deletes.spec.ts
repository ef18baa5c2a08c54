/**
 * Deletes leave reads and lists (States and transitions: a soft-deleted work order is "removed from
 * public reads", an expense entry "retired, not physically deleted", a custom-field definition and a
 * meter archived; Endpoints): every DELETE operation that has a recipe (suites/recipes) deletes a record
 * its recipe made, and the read of the same path answers 404 afterwards or the list of its parent path
 * no longer shows it (SPEC-010); an archived meter stays readable as archived (getMeter: "one meter,
 * active or archived"). Operations or reads whose route is inferred, and archives that stay readable,
 * are tagged SPEC-005 instead, so they never decide certification. Each test makes its own record; the
 * other operation-wide checks are operations-requests.spec.ts's.
 */
import { test, expect } from '../fixtures.ts';
import { expectSucceeded } from '../lib/expect-success.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { operations } from '../lib/operations.ts';
import { recipeOf, sendPrepared as send } from '../recipes/index.ts';
import type { Operation } from '../../contract/openapi.ts';
import { findListed, GETS, listItems, parentPath, tagFor, unwrap, type Resource } from './operations-helpers.ts';

/**
 * Deletes whose resource stays readable, with what the read shows instead (getMeter: "one meter, active
 * or archived"; readable archived meters are inferred, METER-014).
 */
const STAYS_READABLE: Record<string, (resource: Resource) => boolean> = {
  archiveMeter: (meter) => meter.is_active === false,
};

/** How a deletion is observed: the GET of the same path, or the list GET of the parent path. */
function afterDelete(op: Operation): { kind: 'single' | 'list'; read: Operation } | undefined {
  if (op.method !== 'DELETE') return undefined;
  const single = GETS.find((g) => g.path === op.path);
  if (single) return { kind: 'single', read: single };
  const list = GETS.find((g) => g.path === parentPath(op.path) && g.path !== op.path);
  return list ? { kind: 'list', read: list } : undefined;
}

for (const op of operations.filter((o) => afterDelete(o))) {
  const recipe = recipeOf(op);
  const observe = afterDelete(op)!;

  test.describe(`${op.operationId} (${op.method} ${op.path})`, () => {
    const staysReadable = STAYS_READABLE[op.operationId];
    const title = observe.kind === 'single' ? (staysReadable ? 'the archived resource stays readable as archived' : 'the deleted resource answers 404 afterwards') : 'the deleted resource leaves its list';
    test(title, { tag: tagFor(['@SPEC-010'], op.inferred || observe.read.inferred || staysReadable !== undefined) }, async ({ api, profile }) => {
      const prepared = await recipe({ api, profile });
      const listPath = prepared.path.replace(/\/[^/]+$/, '');
      const id = decodeURIComponent(prepared.path.split('/').at(-1)!);
      const present = observe.kind === 'single' ? (await api.get(prepared.path)).status === 200 : (await findListed(api, listPath, id)) !== undefined;
      expect(present, `${id} is readable before the delete`).toBe(true);
      const deleted = await send(api, prepared);
      expectSucceeded(deleted);
      if (observe.kind === 'list') {
        expect((await listItems(api, listPath)).map((item) => String(item.id)), `${observe.read.operationId} after the delete`).not.toContain(id);
      } else if (staysReadable) {
        const read = await api.get(prepared.path);
        expect(read.status).toBe(200);
        expect(staysReadable(unwrap(read.body) ?? {}), `${op.operationId}: the read shows it archived`).toBe(true);
      } else {
        expectProblem(await api.get(prepared.path), 404);
      }
    });
  });
}
