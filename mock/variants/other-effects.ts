/**
 * `other-effects` (docs/freedoms.md): where the description does not state what a transition does or
 * which moves exist, other choices.
 * - "Transitions of work-order status: not shown." A done or canceled work order stays closed: a PATCH
 *   moving it back to `open`, `on_hold` or `in_progress` answers 400 `validation_error` (the statuses the
 *   PATCH row lists are "200; 400, 401, 403, 404, 429": no 409) and changes nothing. Completion still
 *   issues pending parts (stated).
 * - "Permitted moves between part statuses: not shown beyond the server-computed `allowedTransitions`.
 *   Staging settings can hide statuses." Every organization's staging settings hide `kitted` and `staged`,
 *   so `allowedTransitions` never offers them.
 */
import { ProblemError } from '../http/problem.ts';
import { wrapHandlers } from '../hooks/edit.ts';
import type { Handler } from '../http/context.ts';
import type { Alteration } from '../hooks/alteration.ts';

const ACTIVE = new Set(['open', 'on_hold', 'in_progress']);

/** The work-order update refusing to reopen a closed work order. */
const noReopening = (original: Handler): Handler => (ctx) => {
  const status = (ctx.body as { status?: unknown } | undefined)?.status;
  const current = ctx.org.workOrders.get(String(ctx.params.id))?.data.status;
  if (typeof status === 'string' && ACTIVE.has(status) && current !== undefined && !ACTIVE.has(current)) {
    throw new ProblemError(400, 'validation_error', `A ${current} work order stays closed.`);
  }
  return original(ctx);
};

export const otherEffects: Alteration = {
  handlers: wrapHandlers({ updateWorkOrder: noReopening }),
  world: (w) => {
    for (const org of w.orgs.values()) org.settings.staging = { kitted: false, staged: false };
  },
};
