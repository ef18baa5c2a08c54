/**
 * The demands other work orders place on stock (mock/domain/stock.ts `demandsOn`, States and transitions
 * › Part status) read through the work orders' `stock_demand` index (mock/store/org.ts) equal what a
 * scan of every visible work order gives, after any inserts, section changes (status, lines), soft
 * deletes and issues: same keys, same demands, in work-order id order.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { Collection } from '../store/collection.ts';
import { Org } from '../store/org.ts';
import { demandsOn } from '../domain/stock.ts';
import type { PartStatus, PartsLine, WorkOrderRow } from '../store/types.ts';

const STATUSES: PartStatus[] = ['assigned', 'reserved', 'kitted', 'staged', 'issued'];
const line = fc.record({ partId: fc.constantFrom('prt_a', 'prt_b'), locationId: fc.constantFrom('loc_1', 'loc_2'), quantity: fc.integer({ min: 1, max: 5 }) });
const write = fc.record({ n: fc.integer({ min: 0, max: 30 }), status: fc.constantFrom(...STATUSES), lines: fc.array(line, { maxLength: 3 }), deleted: fc.boolean() });

function row(n: number, status: PartStatus, lines: Array<{ partId: string; locationId: string; quantity: number }>, deleted: boolean): WorkOrderRow {
  const id = `wo_${String(n).padStart(3, '0')}`;
  const parts = lines.map((l, i): PartsLine => ({ id: `wop_${id}_${i}`, ...l, quantityUsed: null, unitCostMinor: null }));
  return { id, labor: [], purchaseCostMinor: 0, parts: { status, lines: parts, idempotency: new Map() }, data: { id, title: id, priority: 'medium' }, ...(deleted ? { deletedAt: '2026-01-01T00:00:00Z' } : {}) } as WorkOrderRow;
}

test('indexed demands equal scanned demands after any writes', () => {
  fc.assert(
    fc.property(fc.array(write, { maxLength: 80 }), fc.subarray(['prt_a loc_1', 'prt_a loc_2', 'prt_b loc_1', 'prt_b loc_2'], { minLength: 1 }), fc.integer({ min: 0, max: 30 }), (writes, keys, except) => {
      const org = new Org('org_t', 'T', {} as never, {} as never);
      for (const w of writes) {
        const next = row(w.n, w.status, w.lines, w.deleted);
        if (org.workOrders.getAny(next.id)) org.workOrders.replace(next);
        else org.workOrders.insert(next);
      }
      const scanned = { workOrders: new Collection<WorkOrderRow>((w) => w.deletedAt === undefined) } as Org;
      for (const r of org.workOrders.all()) scanned.workOrders.insert(r);
      const exceptId = `wo_${String(except).padStart(3, '0')}`;
      const view = (m: ReturnType<typeof demandsOn>) => [...m].map(([k, list]) => [k, list.map((d) => [d.workOrder.id, d.partStatus, d.quantity])] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
      expect(view(demandsOn(org, new Set(keys), exceptId))).toEqual(view(demandsOn(scanned, new Set(keys), exceptId)));
    }),
    { seed: 20240917, numRuns: 200 },
  );
});
