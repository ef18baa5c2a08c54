/**
 * Stock arithmetic behind the parts section (mock/domain/stock.ts): movements and the ledger, demands of
 * other work orders, committed and available quantities, shortfalls.
 */
import { test, expect } from '@playwright/test';
import { Org } from '../store/org.ts';
import type { PartStatus, PartsLine, WorkOrderRow } from '../store/types.ts';
import { availableTo, committedBy, demandsOn, onHand, quantitiesByStock, recordMovements, shortfalls, stockKey } from '../domain/stock.ts';

const AT = '2026-01-01T00:00:00.000Z';
const A = stockKey('prt_a', 'loc_1');
const B = stockKey('prt_b', 'loc_1');

function org(): Org {
  return new Org('org_t', 'Test', { parts_inventory: true, meters: true, requests: true, request_portals: true }, {
    currency: 'USD', costTracking: true, staging: { kitted: true, staged: true }, unitCostOverrides: true,
  });
}

let next = 0;
/** A visible, open work order whose section is `status` with one line per [partId, quantity]. */
function workOrder(o: Org, status: PartStatus, lines: Array<[string, number]>, deleted = false): WorkOrderRow {
  const id = `wo_${String(next++).padStart(4, '0')}`;
  const parts: PartsLine[] = lines.map(([partId, quantity], i) => ({ id: `${id}_${i}`, partId, locationId: 'loc_1', quantity, quantityUsed: null, unitCostMinor: null }));
  return o.workOrders.insert({
    id, labor: [], purchaseCostMinor: 0, ...(deleted ? { deletedAt: AT } : {}),
    parts: { status, lines: parts, idempotency: new Map() },
    data: { id, title: `WO ${id}`, priority: 'medium', status: 'open' },
  } as WorkOrderRow);
}

test('movements change what is on hand and stay in the ledger in order', () => {
  const o = org();
  expect(onHand(o, 'prt_a', 'loc_1')).toBe(0);
  recordMovements(o, [
    { at: AT, partId: 'prt_a', locationId: 'loc_1', delta: 10, reason: 'seed' },
    { at: AT, partId: 'prt_a', locationId: 'loc_1', delta: -4, reason: 'issue', workOrderId: 'wo_x' },
    { at: AT, partId: 'prt_a', locationId: 'loc_1', delta: 1, reason: 'correction', workOrderId: 'wo_x' },
  ]);
  expect(onHand(o, 'prt_a', 'loc_1')).toBe(7);
  expect(o.movements.map((m) => [m.reason, m.delta])).toEqual([['seed', 10], ['issue', -4], ['correction', 1]]);
});

test('line quantities are summed per part and location', () => {
  expect(quantitiesByStock([
    { partId: 'prt_a', locationId: 'loc_1', quantity: 2 },
    { partId: 'prt_a', locationId: 'loc_1', quantity: 3 },
    { partId: 'prt_b', locationId: 'loc_1', quantity: 1 },
  ])).toEqual(new Map([[A, 5], [B, 1]]));
});

test("demands are other visible, unissued work orders' lines on the asked keys, one per work order", () => {
  const o = org();
  const self = workOrder(o, 'reserved', [['prt_a', 9]]);
  const assigned = workOrder(o, 'assigned', [['prt_a', 1], ['prt_a', 2], ['prt_b', 5]]);
  const kitted = workOrder(o, 'kitted', [['prt_a', 4]]);
  workOrder(o, 'issued', [['prt_a', 6]]);
  workOrder(o, 'staged', [['prt_a', 7]], true);
  const demands = demandsOn(o, new Set([A]), self.id);
  expect(demands.get(A)!.map((d) => [d.workOrder.id, d.partStatus, d.quantity])).toEqual([[assigned.id, 'assigned', 3], [kitted.id, 'kitted', 4]]);
  expect(demands.has(B)).toBe(false);
  expect(demandsOn(o, new Set(), self.id).size).toBe(0);
});

test('only reserved, kitted and staged demands are committed', () => {
  const o = org();
  const statuses: PartStatus[] = ['assigned', 'reserved', 'kitted', 'staged'];
  for (const [i, s] of statuses.entries()) workOrder(o, s, [['prt_a', 10 ** i]]);
  expect(committedBy(demandsOn(o, new Set([A]), 'wo_none').get(A))).toBe(10 + 100 + 1000);
  expect(committedBy(undefined)).toBe(0);
});

test('available is on hand minus what other work orders commit; shortfalls name the keys that do not fit', () => {
  const o = org();
  recordMovements(o, [{ at: AT, partId: 'prt_a', locationId: 'loc_1', delta: 10, reason: 'seed' }, { at: AT, partId: 'prt_b', locationId: 'loc_1', delta: 2, reason: 'seed' }]);
  const self = workOrder(o, 'staged', [['prt_a', 5]]);
  workOrder(o, 'reserved', [['prt_a', 4]]);
  expect(availableTo(o, new Set([A, B]), self.id)).toEqual(new Map([[A, 6], [B, 2]]));
  expect(shortfalls(o, self.id, new Map([[A, 6], [B, 2]]))).toEqual([]);
  expect(shortfalls(o, self.id, new Map([[A, 7], [B, 3]]))).toEqual([A, B]);
  expect(shortfalls(o, self.id, new Map([[A, 0], [B, -1]])), 'no extra quantity never falls short').toEqual([]);
});
