/** Mutants of the self-test (docs/maintainers.md, "The self-test"): parts. */
import { aggregateVersion } from '../../domain/parts-section.ts';
import { editJson, forOperations, wrapHandlers } from '../../hooks/edit.ts';
import type { Mutant } from '../mutant.ts';

export const partsMutants: Mutant[] = [
  // ── parts ──
  { name: 'parts-version-unchanged', requirement: 'PARTS-002', description: 'aggregateVersion does not change when the section changes.',
    mutation: { response: forOperations(['getWorkOrderParts', 'commandWorkOrderParts'], (out) => editJson(out, (b) => { if (b.aggregateVersion) b.aggregateVersion = 'f'.repeat(64); })) } },
  { name: 'parts-unit-cost-dropped', requirement: 'PARTS-004', description: 'unitCost is omitted although cost access is granted.',
    mutation: { response: forOperations(['getWorkOrderParts'], (out) => editJson(out, (b) => { if (b.capabilities?.canViewCost) for (const i of b.items) delete i.unitCost; })) } },
  { name: 'parts-assigned-reserves', requirement: 'PARTS-008', description: 'Assigned parts of other work orders reduce availability.',
    mutation: { response: forOperations(['getWorkOrderParts'], (out) => editJson(out, (b) => { for (const i of b.items) { const held = b.competingDemands.filter((d: any) => d.partId === i.partId && d.locationId === i.locationId && d.partStatus === 'assigned').reduce((n: number, d: any) => n + d.quantity, 0); i.availableQuantity -= held; } })) } },
  { name: 'parts-commitments-ignored', requirement: 'PARTS-009', description: 'Reserved parts of other work orders do not reduce availability.',
    mutation: { response: forOperations(['getWorkOrderParts'], (out) => editJson(out, (b) => { for (const i of b.items) i.availableQuantity = i.inStockQuantity; })) } },
  { name: 'parts-issue-without-deduction', requirement: 'PARTS-010', description: 'Issuing parts does not deduct stock.',
    mutation: { handlers: wrapHandlers({ commandWorkOrderParts: (original) => (ctx) => { const body = ctx.body as { operation: string; targetStatus?: string }; if (body.operation !== 'transition' || body.targetStatus !== 'issued') return original(ctx); const before = new Map(ctx.org.stock); const reply = original(ctx); for (const [k, v] of before) ctx.org.stock.set(k, v); return reply; } }) } },
  { name: 'parts-stale-version-accepted', requirement: 'PARTS-016', description: 'A stale expectedAggregateVersion is accepted.',
    mutation: { handlers: wrapHandlers({ commandWorkOrderParts: (original) => (ctx) => { const row = ctx.org.workOrders.get(ctx.params.id as string); if (row) (ctx.body as { expectedAggregateVersion: string }).expectedAggregateVersion = aggregateVersion(row); return original(ctx); } }) } },
  { name: 'parts-retry-applied-twice', requirement: 'PARTS-017', description: 'A retried command is applied again.',
    mutation: { handlers: wrapHandlers({ commandWorkOrderParts: (original) => (ctx) => { const row = ctx.org.workOrders.get(ctx.params.id as string); if (row) { ctx.org.workOrders.replace({ ...row, parts: { ...row.parts, idempotency: new Map() } }); (ctx.body as { expectedAggregateVersion: string }).expectedAggregateVersion = aggregateVersion(ctx.org.workOrders.get(row.id)!); } return original(ctx); } }) } },
  { name: 'parts-replace-renumbers-rows', requirement: 'PARTS-019', description: 'replace gives every row a new id.',
    mutation: { body: (op, body: any) => (op === 'commandWorkOrderParts' && body?.operation === 'replace' && Array.isArray(body.items) ? { ...body, items: body.items.map(({ id: _id, ...item }: { id?: string }) => item) } : body) } },
];
