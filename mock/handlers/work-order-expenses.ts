/**
 * Work-order expenses (Resources › Work-order expense entry; Endpoints › Work-order expenses; States and
 * transitions › Expense entry).
 *
 * - GET lists the work order's active entries in creation order, the organization's current currency
 *   (for new entries only) and `canCreate` (inferred: cost tracking on and the work order active).
 * - POST records an entry attributed to an active user of the organization (else 404) with the current
 *   currency; the API key stays the actor. Cost tracking off answers 409 `cost_tracking_disabled` and an
 *   inactive work order 409 `work_order_inactive` (both inferred: the description lists no status).
 *   Labor rates and purchase costs are untouched; the work order's other cost grows (costsOf).
 * - DELETE retires the entry (kept, hidden); a repeat answers 204, also with cost tracking off.
 */
import type { Context, HandlerMapPart } from '../http/context.ts';
import { cachedJson } from '../http/json-cache.ts';
import { noContent, raw } from '../http/envelope.ts';
import { conflict, notFound } from '../http/problem.ts';
import type { ExpenseRow, Schemas, WorkOrderRow } from '../store/types.ts';
import { expensesOf, workOrderOf } from './work-orders.ts';
import { newExpense } from '../store/records.ts';
import { isActive } from '../domain/work-order-state.ts';

const serialize = (row: ExpenseRow): string => cachedJson(row.data);

/** Refuses a new entry unless cost tracking is on and the work order is active (inferred 409s). */
function checkCanRecord(ctx: Context, wo: WorkOrderRow): void {
  if (!ctx.org.settings.costTracking) {
    throw conflict('Cost tracking is disabled for this organization; expenses cannot be recorded.', 'cost_tracking_disabled');
  }
  if (!isActive(wo)) throw conflict('The work order is not active (done, canceled or skipped); expenses cannot be recorded.', 'work_order_inactive');
}

export const expenseHandlers = {
  listWorkOrderExpenses(ctx) {
    const wo = workOrderOf(ctx);
    const items: string[] = [];
    for (const e of expensesOf(ctx.org, wo.id)) items.push(serialize(e));
    const canCreate = ctx.org.settings.costTracking && isActive(wo);
    return raw(`{"items":[${items.join(',')}],"currency":${JSON.stringify(ctx.org.settings.currency)},"canCreate":${canCreate}}`);
  },

  createWorkOrderExpense(ctx) {
    const wo = workOrderOf(ctx);
    checkCanRecord(ctx, wo);
    const body = ctx.body as Schemas['ExpenseCreateRequest'];
    if (!ctx.org.users.get(body.user_id)?.active) throw notFound(`User ${body.user_id}`);
    const row = newExpense(ctx.world.ids, wo.id, {
      user_id: body.user_id,
      type: body.type,
      amount_minor: body.amount_minor,
      currency: ctx.org.settings.currency,
      description: body.description ?? null,
      actorKeyId: ctx.key.id,
      created_at: new Date(ctx.now).toISOString(),
    });
    ctx.org.expenses.insert(row);
    return raw(serialize(row), 201);
  },

  retireWorkOrderExpense(ctx) {
    const wo = workOrderOf(ctx);
    const row = ctx.org.expenses.getAny(ctx.params.costId as string);
    if (!row || row.workOrderId !== wo.id) throw notFound('The expense entry');
    if (row.retiredAt === undefined) ctx.org.expenses.replace({ ...row, retiredAt: new Date(ctx.now).toISOString() });
    return noContent();
  },
} satisfies HandlerMapPart;
