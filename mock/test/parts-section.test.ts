/**
 * The parts section's computation and commands (mock/domain/parts-section.ts): version, allowed
 * transitions, the section view, transitions, replace (usage edits with corrections beside the
 * original movements in the ledger) and completion.
 */
import { test, expect } from '@playwright/test';
import { Org } from '../store/org.ts';
import type { OrgSettings, PartStatus, PartsLine, Schemas, WorkOrderRow } from '../store/types.ts';
import { ProblemError } from '../http/problem.ts';
import { recordMovements } from '../domain/stock.ts';
import { aggregateVersion, allowedTransitions, canonicalJson, emptyParts, sectionView } from '../domain/parts-section.ts';
import { issuePendingParts, replaceLines, transition } from '../domain/parts-commands.ts';

const AT = '2026-01-01T00:00:00.000Z';

interface Plant {
  org: Org;
  /** A new open (or `status`) work order on asset ast_1, with `lines` in section `partStatus`. */
  workOrder(lines?: Array<Partial<PartsLine> & { partId: string; quantity: number }>, partStatus?: PartStatus, status?: string): WorkOrderRow;
  newId(): string;
}

/**
 * An organization with a site and its area, parts prt_a (250 a unit, 10 in the area), prt_b (no cost, 2
 * in the area) and archived prt_old; prt_a is linked to asset ast_1.
 */
function plant(settings: Partial<OrgSettings> = {}, partsModule = true): Plant {
  const org = new Org('org_t', 'Test', { parts_inventory: partsModule, meters: true, requests: true, request_portals: true }, {
    currency: 'USD', costTracking: true, staging: { kitted: true, staged: true }, unitCostOverrides: true, ...settings,
  });
  org.locations.insert({ id: 'loc_0site', data: { id: 'loc_0site', name: 'North Plant', parentId: null } });
  org.locations.insert({ id: 'loc_1area', data: { id: 'loc_1area', name: 'Line 1', parentId: 'loc_0site' } });
  const part = (id: string, unitCostMinor: number | null, archived = false) =>
    org.parts.insert({ id, archived, unitCostMinor, data: { id, name: `Part ${id}`, part_number: `PN-${id}`, image_url: null } });
  part('prt_a', 250);
  part('prt_b', null);
  part('prt_old', 100, true);
  org.assetParts.add('ast_1 prt_a');
  recordMovements(org, [
    { at: AT, partId: 'prt_a', locationId: 'loc_1area', delta: 10, reason: 'seed' },
    { at: AT, partId: 'prt_b', locationId: 'loc_1area', delta: 2, reason: 'seed' },
  ]);
  let n = 0;
  return {
    org,
    newId: () => `wop_new${n++}`,
    workOrder(lines = [], partStatus = 'assigned', status = 'open') {
      const id = `wo_${String(n++).padStart(4, '0')}`;
      const parts = emptyParts();
      parts.status = partStatus;
      parts.lines = lines.map((l, i) => ({ id: `wop_${id}_${i}`, locationId: 'loc_1area', quantityUsed: null, unitCostMinor: null, ...l }));
      return org.workOrders.insert({ id, labor: [], purchaseCostMinor: 0, parts, data: { id, title: `WO ${id}`, priority: 'medium', status, asset_id: 'ast_1' } } as WorkOrderRow);
    },
  };
}

function problem(fn: () => unknown): ProblemError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProblemError) return e;
    throw e;
  }
  throw new Error('expected a ProblemError');
}

const onHand = (org: Org, partId = 'prt_a') => org.stock.get(`${partId} loc_1area`);

test('canonical JSON ignores key order; the version is SHA-256 hex of the work order, status and rows', () => {
  expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }] })).toBe(canonicalJson({ a: [{ c: null, d: 2 }], b: 1 }));
  const p = plant();
  const wo = p.workOrder([{ partId: 'prt_a', quantity: 1 }]);
  const v = aggregateVersion(wo);
  expect(v).toMatch(/^[0-9a-f]{64}$/);
  expect(aggregateVersion({ ...wo })).toBe(v);
  expect(aggregateVersion({ ...wo, parts: { ...wo.parts, status: 'reserved' } })).not.toBe(v);
  expect(aggregateVersion({ ...wo, parts: { ...wo.parts, lines: [{ ...wo.parts.lines[0]!, quantity: 2 }] } })).not.toBe(v);
  expect(aggregateVersion({ ...wo, id: 'wo_other' }), 'two sections never share a version').not.toBe(v);
});

test('allowedTransitions: every shown status but the current; issued only to assigned while active; none when inactive', () => {
  const p = plant();
  expect(allowedTransitions(p.org, p.workOrder([], 'assigned'))).toEqual(['reserved', 'kitted', 'staged', 'issued']);
  expect(allowedTransitions(p.org, p.workOrder([], 'kitted'))).toEqual(['assigned', 'reserved', 'staged', 'issued']);
  expect(allowedTransitions(p.org, p.workOrder([], 'issued'))).toEqual(['assigned']);
  expect(allowedTransitions(p.org, p.workOrder([], 'issued', 'done'))).toEqual([]);
  expect(allowedTransitions(p.org, p.workOrder([], 'assigned', 'canceled'))).toEqual([]);
  const strict = plant({ staging: { kitted: false, staged: false } });
  expect(allowedTransitions(strict.org, strict.workOrder([], 'reserved'))).toEqual(['assigned', 'issued']);
  const noParts = plant({}, false);
  expect(allowedTransitions(noParts.org, noParts.workOrder([], 'assigned'))).toEqual([]);
  expect(allowedTransitions(noParts.org, noParts.workOrder([], 'reserved'))).toEqual(['assigned']);
});

test('the section view: items with part, location and area, stock, readiness, cost; demands; capabilities', () => {
  const p = plant();
  const other = p.workOrder([{ partId: 'prt_a', quantity: 4 }], 'reserved');
  const wo = p.workOrder([{ partId: 'prt_a', quantity: 6, unitCostMinor: 250 }, { partId: 'prt_b', quantity: 3 }]);
  const view = sectionView(p.org, wo);
  expect(view).toMatchObject({ workOrderId: wo.id, partStatus: 'assigned', partAvailability: 'partial', aggregateVersion: aggregateVersion(wo), historyOnly: false });
  const [a, b] = view.items as [Schemas['PartsItem'], Schemas['PartsItem']];
  expect(a).toMatchObject({ quantity: 6, quantityUsed: null, inStockQuantity: 10, availableQuantity: 6, readiness: 'ready', linkable: true, unitCost: { minor: 250, currency: 'USD' } });
  expect(a.part).toEqual({ id: 'prt_a', name: 'Part prt_a', partNumber: 'PN-prt_a', imageUrl: null, imageBlur: null, archived: false });
  expect(a.location).toEqual({ id: 'loc_1area', name: 'Line 1', area: 'North Plant', imageUrl: null, imageBlur: null });
  expect(b).toMatchObject({ readiness: 'short', linkable: false, unitCost: null });
  expect(a.issuedSnapshot).toBeUndefined();
  expect(view.competingDemands).toEqual([{ workOrderId: other.id, title: other.data.title, partId: 'prt_a', locationId: 'loc_1area', partStatus: 'reserved', quantity: 4 }]);
  expect(view.capabilities).toEqual({
    canEditParts: true, canRemoveParts: true, canTransitionPartStatus: true, canRelease: false, canOverrideOvercommit: false,
    canReconcile: false, canViewCost: true, canOverrideUnitCost: true, allowedTransitions: ['reserved', 'kitted', 'staged', 'issued'],
  });
  const noCost = plant({ costTracking: false, unitCostOverrides: false });
  const hidden = sectionView(noCost.org, noCost.workOrder([{ partId: 'prt_a', quantity: 20 }]));
  expect('unitCost' in hidden.items[0]!, 'unitCost is omitted without cost access').toBe(false);
  expect(hidden).toMatchObject({ partAvailability: 'unavailable', capabilities: { canViewCost: false, canOverrideUnitCost: false } });
  expect(hidden.items[0]!.readiness).toBe('short');
});

test('issuing deducts every row at once with a snapshot; returning to assigned puts the used quantity back', () => {
  const p = plant();
  const wo = p.workOrder([{ partId: 'prt_a', quantity: 3, unitCostMinor: 250 }]);
  const issued = transition(p.org, wo, 'issued', AT);
  expect(issued.parts.status).toBe('issued');
  expect(issued.parts.lines[0]).toMatchObject({ quantityUsed: 3, issued: { at: AT, quantity: 3, kind: 'issue', partName: 'Part prt_a', locationName: 'Line 1', locationArea: 'North Plant', unitCostMinor: 250 } });
  expect(onHand(p.org)).toBe(7);
  const view = sectionView(p.org, issued);
  expect(view).toMatchObject({ partAvailability: 'available', capabilities: { allowedTransitions: ['assigned'], canReconcile: true } });
  expect(view.items[0]).toMatchObject({ readiness: 'issued', issuedSnapshot: { quantityUsed: 3, snapshotKind: 'issue', unitCost: { minor: 250, currency: 'USD' } } });
  const back = transition(p.org, issued, 'assigned', AT);
  expect(back.parts.lines[0]).toEqual({ ...wo.parts.lines[0], quantityUsed: null });
  expect(onHand(p.org)).toBe(10);
  expect(p.org.movements.slice(-2).map((m) => [m.reason, m.delta])).toEqual([['issue', -3], ['return', 3]]);
});

test('refused transitions: not allowed (409), module disabled (403), not enough stock (409), and nothing moves', () => {
  const p = plant();
  const wo = p.workOrder([{ partId: 'prt_a', quantity: 11 }]);
  expect(problem(() => transition(p.org, wo, 'assigned', AT))).toMatchObject({ status: 409, code: 'transition_not_allowed' });
  for (const target of ['reserved', 'issued'] as const) expect(problem(() => transition(p.org, wo, target, AT))).toMatchObject({ status: 409, code: 'insufficient_stock' });
  const noParts = plant({}, false);
  expect(problem(() => transition(noParts.org, noParts.workOrder(), 'reserved', AT))).toMatchObject({ status: 403, code: 'module_disabled' });
  expect(onHand(p.org)).toBe(10);
  expect(p.org.movements).toHaveLength(2);
  expect(transition(p.org, p.workOrder([{ partId: 'prt_a', quantity: 10 }]), 'kitted', AT).parts.status, 'exactly what is available fits').toBe('kitted');
});

test('replace keeps the ids it names, makes new ones, drops the rest, and snapshots the unit cost', () => {
  const p = plant();
  const wo = p.workOrder([{ partId: 'prt_a', quantity: 1 }, { partId: 'prt_b', quantity: 1 }]);
  const [kept] = wo.parts.lines;
  const next = replaceLines(p.org, wo, [{ id: kept!.id, partId: 'prt_a', locationId: 'loc_1area', quantity: 5 }, { partId: 'prt_b', locationId: 'loc_1area', quantity: 2, unitCostMinor: 99 }], AT, p.newId);
  expect(next.parts.lines).toEqual([
    { id: kept!.id, partId: 'prt_a', locationId: 'loc_1area', quantity: 5, quantityUsed: null, unitCostMinor: 250 },
    { id: 'wop_new1', partId: 'prt_b', locationId: 'loc_1area', quantity: 2, quantityUsed: null, unitCostMinor: 99 },
  ]);
  expect(p.org.movements, 'an assigned section moves no stock').toHaveLength(2);
});

test('replace refuses unknown rows (400), unavailable parts and locations (404), overrides without the setting (409)', () => {
  const p = plant();
  const wo = p.workOrder([{ partId: 'prt_old', quantity: 1 }]);
  const row = (o: Record<string, unknown>) => ({ partId: 'prt_a', locationId: 'loc_1area', quantity: 1, ...o });
  expect(problem(() => replaceLines(p.org, wo, [row({ id: 'wop_nope' })], AT, p.newId))).toMatchObject({ status: 400, code: 'validation_error' });
  const id = wo.parts.lines[0]!.id;
  expect(problem(() => replaceLines(p.org, wo, [row({ id, partId: 'prt_old' }), row({ id, partId: 'prt_old' })], AT, p.newId))).toMatchObject({ status: 400 });
  expect(problem(() => replaceLines(p.org, wo, [row({ partId: 'prt_nope' })], AT, p.newId))).toMatchObject({ status: 404 });
  expect(problem(() => replaceLines(p.org, wo, [row({ partId: 'prt_old' })], AT, p.newId)), 'an archived part on a new row').toMatchObject({ status: 404 });
  expect(replaceLines(p.org, wo, [row({ id, partId: 'prt_old', quantity: 2 })], AT, p.newId).parts.lines[0]!.quantity, 'a kept row may keep its archived part').toBe(2);
  expect(problem(() => replaceLines(p.org, wo, [row({ locationId: 'loc_nope' })], AT, p.newId))).toMatchObject({ status: 404 });
  const strict = plant({ unitCostOverrides: false });
  expect(problem(() => replaceLines(strict.org, strict.workOrder(), [row({ unitCostMinor: 1 })], AT, strict.newId))).toMatchObject({ status: 409, code: 'unit_cost_override_not_allowed' });
  expect(problem(() => replaceLines(p.org, p.workOrder([], 'reserved', 'done'), [row({})], AT, p.newId))).toMatchObject({ status: 409, code: 'work_order_inactive' });
});

test('replace on a committed section must fit the available stock; with the module disabled it cannot grow', () => {
  const p = plant();
  p.workOrder([{ partId: 'prt_a', quantity: 4 }], 'staged');
  const wo = p.workOrder([{ partId: 'prt_a', quantity: 2 }], 'reserved');
  const row = { id: wo.parts.lines[0]!.id, partId: 'prt_a', locationId: 'loc_1area' };
  expect(replaceLines(p.org, wo, [{ ...row, quantity: 6 }], AT, p.newId).parts.lines[0]!.quantity).toBe(6);
  expect(problem(() => replaceLines(p.org, wo, [{ ...row, quantity: 7 }], AT, p.newId))).toMatchObject({ status: 409, code: 'insufficient_stock' });
  const noParts = plant({}, false);
  const held = noParts.workOrder([{ partId: 'prt_a', quantity: 2 }], 'reserved');
  const heldRow = { id: held.parts.lines[0]!.id, partId: 'prt_a', locationId: 'loc_1area' };
  expect(problem(() => replaceLines(noParts.org, held, [{ ...heldRow, quantity: 3 }], AT, noParts.newId))).toMatchObject({ status: 403, code: 'module_disabled' });
  expect(replaceLines(noParts.org, held, [{ ...heldRow, quantity: 1 }], AT, noParts.newId).parts.lines[0]!.quantity, 'releasing is allowed').toBe(1);
});

test('usage edits of an issued section move stock by the difference; corrections stand beside the originals', () => {
  const p = plant();
  const issued = transition(p.org, p.workOrder([{ partId: 'prt_a', quantity: 3 }], 'assigned'), 'issued', AT);
  const completed: WorkOrderRow = { ...issued, data: { ...issued.data, status: 'done' } };
  const id = completed.parts.lines[0]!.id;
  const raised = replaceLines(p.org, completed, [{ id, partId: 'prt_a', locationId: 'loc_1area', quantity: 5 }], AT, p.newId);
  expect(raised.parts.lines[0]).toMatchObject({ id, quantity: 5, quantityUsed: 5, issued: { quantity: 5, kind: 'correction' } });
  expect(onHand(p.org)).toBe(5);
  const moved = replaceLines(p.org, raised, [{ partId: 'prt_b', locationId: 'loc_1area', quantity: 1 }], AT, p.newId);
  expect(moved.parts.lines).toEqual([expect.objectContaining({ partId: 'prt_b', quantityUsed: 1, issued: expect.objectContaining({ kind: 'issue' }) })]);
  expect([onHand(p.org), onHand(p.org, 'prt_b')]).toEqual([10, 1]);
  expect(p.org.movements.slice(2).map((m) => [m.reason, m.partId, m.delta])).toEqual([
    ['issue', 'prt_a', -3], ['correction', 'prt_a', -2], ['correction', 'prt_a', 5], ['issue', 'prt_b', -1],
  ]);
  expect(problem(() => replaceLines(p.org, moved, [{ partId: 'prt_b', locationId: 'loc_1area', quantity: 3 }], AT, p.newId))).toMatchObject({ status: 409, code: 'insufficient_stock' });
  expect(onHand(p.org, 'prt_b')).toBe(1);
});

test('completion issues pending rows (completion movements) unless none are pending or the module is disabled', () => {
  const p = plant();
  const wo = p.workOrder([{ partId: 'prt_a', quantity: 2 }], 'kitted', 'done');
  const done = issuePendingParts(p.org, wo, AT);
  expect(done.parts.status).toBe('issued');
  expect(done.parts.lines[0]).toMatchObject({ quantityUsed: 2, issued: { kind: 'completion' } });
  expect(p.org.movements.at(-1)).toMatchObject({ reason: 'completion', delta: -2, workOrderId: wo.id });
  expect(issuePendingParts(p.org, done, AT)).toBe(done);
  const empty = p.workOrder();
  expect(issuePendingParts(p.org, empty, AT)).toBe(empty);
  const noParts = plant({}, false);
  const held = noParts.workOrder([{ partId: 'prt_a', quantity: 2 }]);
  expect(issuePendingParts(noParts.org, held, AT)).toBe(held);
  expect(onHand(noParts.org)).toBe(10);
});
