/** Mutants of the self-test (docs/maintainers.md, "The self-test"): work orders, expenses. */
import { single } from '../../http/envelope.ts';
import { notFound } from '../../http/problem.ts';
import { editJson, editQuery, editReply, forOperations, withTemporary, wrapHandlers } from '../../hooks/edit.ts';
import type { Mutant } from '../mutant.ts';

export const workOrdersMutants: Mutant[] = [
  // ── work orders ──
  { name: 'todo-without-on-hold', requirement: 'WO-007', description: 'status=todo leaves out on_hold work orders.',
    mutation: { handlers: wrapHandlers({ listWorkOrders: (original) => (ctx) => (ctx.params.status === 'todo' ? editReply(original, ctx, (b) => { b.data = b.data.filter((w: { status: string }) => w.status !== 'on_hold'); }) : original(ctx)) }) } },
  { name: 'priority-filter-ignored', requirement: 'WO-008', description: 'The work-order list ignores priority.',
    mutation: { request: (_m, url) => (url.startsWith('/v1/work-orders?') ? editQuery(url, (q) => q.delete('priority')) : url) } },
  { name: 'soft-deleted-readable', requirement: 'WO-011', description: 'A soft-deleted work order still reads.',
    mutation: { handlers: wrapHandlers({ getWorkOrder: (original) => (ctx) => { const row = ctx.org.workOrders.getAny(ctx.params.id as string); return row?.deletedAt ? single(ctx, JSON.stringify(row.data)) : original(ctx); } }) } },
  { name: 'soft-delete-not-repeatable', requirement: 'WO-012', description: 'Deleting a soft-deleted work order answers 404.',
    mutation: { handlers: wrapHandlers({ deleteWorkOrder: (original) => (ctx) => { if (ctx.org.workOrders.getAny(ctx.params.id as string)?.deletedAt) throw notFound('The work order'); return original(ctx); } }) } },
  { name: 'request-left-pending', requirement: 'WO-016', description: 'Creating with workRequestId does not approve the request.',
    mutation: { handlers: wrapHandlers({ createWorkOrder: (original) => (ctx) => { const id = (ctx.body as { workRequestId?: string }).workRequestId; const reply = original(ctx); const wr = id ? ctx.org.workRequests.get(id) : undefined; if (wr && reply.status === 201) ctx.org.workRequests.replace({ ...wr, data: { ...wr.data, requestStatus: 'PENDING' } }); return reply; } }) } },
  { name: 'repeat-creates-another', requirement: 'WO-017', description: 'Repeating the create with a workRequestId makes another work order.',
    mutation: { handlers: wrapHandlers({ createWorkOrder: (original) => (ctx) => { const id = (ctx.body as { workRequestId?: string }).workRequestId; const wr = id ? ctx.org.workRequests.get(id) : undefined; if (wr?.data.workOrderId) ctx.org.workRequests.replace({ ...wr, data: { ...wr.data, workOrderId: null, requestStatus: 'PENDING' } }); return original(ctx); } }) } },
  { name: 'rejected-request-approved', requirement: 'WO-018', description: 'A rejected request is approved into a work order.',
    mutation: { handlers: wrapHandlers({ createWorkOrder: (original) => (ctx) => { const id = (ctx.body as { workRequestId?: string }).workRequestId; const wr = id ? ctx.org.workRequests.get(id) : undefined; if (wr?.data.requestStatus === 'REJECTED') ctx.org.workRequests.replace({ ...wr, data: { ...wr.data, requestStatus: 'PENDING' } }); return original(ctx); } }) } },
  { name: 'none-creates-low', requirement: 'WOC-002', description: 'Compatibility NONE creates native low.',
    mutation: { body: (op, body: any) => (op === 'createCompatWorkOrder' && body?.priority === 'NONE' ? { ...body, priority: 'LOW' } : body) } },

  { name: 'critical-reads-medium', requirement: 'WOC-003', description: 'Native critical reads as MEDIUM in the compatibility shape.',
    mutation: { handlers: wrapHandlers({ getCompatWorkOrder: (original) => (ctx) => editReply(original, ctx, (b) => { if (ctx.org.workOrders.get(ctx.params.id as string)?.data.priority === 'critical') b.workOrder.priority = 'MEDIUM'; }) }) } },

  // ── expenses ──
  { name: 'retired-expenses-listed', requirement: 'EXP-002', description: 'Retired expense entries stay in the list.',
    mutation: { handlers: wrapHandlers({ listWorkOrderExpenses: (original) => (ctx) => editReply(original, ctx, (b) => { for (const e of ctx.org.expenses.all()) if (e.retiredAt && e.workOrderId === ctx.params.id) b.items.push(e.data); }) }) } },
  { name: 'expense-currency-wrong', requirement: 'EXP-003', description: 'New entries record XXX instead of the organization currency.',
    mutation: { response: forOperations(['createWorkOrderExpense'], (out) => editJson(out, (b) => { if (b.currency) b.currency = 'XXX'; })) } },
  { name: 'expense-extra-properties-accepted', requirement: 'EXP-004', description: 'Unknown expense fields are dropped instead of refused.',
    mutation: { body: (op, body: any) => (op === 'createWorkOrderExpense' && body && typeof body === 'object' ? Object.fromEntries(Object.entries(body).filter(([k]) => ['user_id', 'type', 'amount_minor', 'description'].includes(k))) : body) } },
  { name: 'expense-amount-unbounded', requirement: 'EXP-007', description: 'amount_minor above 2147483647 is capped instead of refused.',
    mutation: { body: (op, body: any) => (op === 'createWorkOrderExpense' && typeof body?.amount_minor === 'number' && body.amount_minor > 2147483647 ? { ...body, amount_minor: 2147483647 } : body) } },
  { name: 'expense-inactive-user-accepted', requirement: 'EXP-009', description: 'Inactive users can own expenses.',
    mutation: { world: (w) => { for (const org of w.orgs.values()) for (const [id, u] of org.users) org.users.set(id, { ...u, active: true }); } } },
  { name: 'expense-cost-tracking-ignored', requirement: 'EXP-010', description: 'Expenses are recorded with cost tracking disabled.',
    mutation: { handlers: wrapHandlers({ createWorkOrderExpense: (original) => (ctx) => withTemporary(() => { const was = ctx.org.settings.costTracking; ctx.org.settings.costTracking = true; return () => { ctx.org.settings.costTracking = was; }; }, () => original(ctx)) }) } },
  { name: 'expense-retire-not-repeatable', requirement: 'EXP-012', description: 'Retiring a retired entry answers 404.',
    mutation: { handlers: wrapHandlers({ retireWorkOrderExpense: (original) => (ctx) => { if (ctx.org.expenses.getAny(ctx.params.costId as string)?.retiredAt) throw notFound('The expense entry'); return original(ctx); } }) } },
];
