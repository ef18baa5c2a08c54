/**
 * Stock behind the work-order parts section (States and transitions › Part status, Part usage):
 * quantities on hand per part and location, the ledger of movements, and the demands other work orders
 * place on a part at a location.
 *
 * - On hand changes only through movements (seed, issue, return, correction, completion); every movement
 *   stays in the ledger, corrections beside the originals.
 * - Reserved, kitted and staged sections count toward the committed quantity; assigned reserves nothing
 *   and issued stock has already left the shelf.
 * - Available to a work order = on hand − what the other visible work orders commit.
 */
import type { Org } from '../store/org.ts';
import { stockKey } from '../store/org.ts';

export { stockKey };
import type { PartStatus, PartsLine, StockMovement, WorkOrderRow } from '../store/types.ts';

/** Part statuses whose quantities count toward the committed quantity. */
export const COMMITTING: ReadonlySet<PartStatus> = new Set(['reserved', 'kitted', 'staged']);


/** Quantity on hand of a part at a location (0 when never stocked). */
export function onHand(org: Org, partId: string, locationId: string): number {
  return org.stock.get(stockKey(partId, locationId)) ?? 0;
}

/** Applies each movement to the quantity on hand and appends it to the ledger. */
export function recordMovements(org: Org, movements: readonly StockMovement[]): void {
  for (const m of movements) {
    const key = stockKey(m.partId, m.locationId);
    org.stock.set(key, (org.stock.get(key) ?? 0) + m.delta);
    org.movements.push(m);
    org.changed?.('stock', key);
    org.changed?.('movement', String(org.movements.length - 1));
  }
}

/** Line quantities summed per part and location. */
export function quantitiesByStock(lines: readonly Pick<PartsLine, 'partId' | 'locationId' | 'quantity'>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const l of lines) {
    const key = stockKey(l.partId, l.locationId);
    out.set(key, (out.get(key) ?? 0) + l.quantity);
  }
  return out;
}

/** One other work order's demand on a part at a location: its section status and summed quantity. */
export interface Demand {
  workOrder: WorkOrderRow;
  partId: string;
  locationId: string;
  partStatus: PartStatus;
  quantity: number;
}

/**
 * Demands of the visible work orders other than `exceptWorkOrderId` on the given stock keys: sections
 * not yet issued (assigned holds, reserved/kitted/staged commit), one entry per work order and key.
 */
export function demandsOn(org: Org, keys: ReadonlySet<string>, exceptWorkOrderId: string): Map<string, Demand[]> {
  const out = new Map<string, Demand[]>();
  if (keys.size === 0) return out;
  // The work orders whose pending sections hold a key (store/org.ts, index `stock_demand`), not all of them.
  const holding = [...keys].map((key) => org.workOrders.holding('stock_demand', key));
  if (holding.every((rows) => rows !== undefined)) {
    const seen = new Set<string>();
    for (const rows of holding) for (const wo of rows!) if (!seen.has(wo.id)) addDemands(out, wo, keys, exceptWorkOrderId), seen.add(wo.id);
    for (const list of out.values()) list.sort((a, b) => (a.workOrder.id < b.workOrder.id ? -1 : 1));
    return out;
  }
  for (const wo of org.workOrders.values()) addDemands(out, wo, keys, exceptWorkOrderId);
  return out;
}

/** Adds the demands of `wo` on `keys` to `out`, once per key; none for `exceptWorkOrderId` or an issued section. */
function addDemands(out: Map<string, Demand[]>, wo: WorkOrderRow, keys: ReadonlySet<string>, exceptWorkOrderId: string): void {
  if (wo.id === exceptWorkOrderId || wo.parts.status === 'issued') return;
  for (const [key, quantity] of quantitiesByStock(wo.parts.lines)) {
    if (!keys.has(key)) continue;
    const [partId, locationId] = key.split(' ') as [string, string];
    const list = out.get(key) ?? out.set(key, []).get(key)!;
    list.push({ workOrder: wo, partId, locationId, partStatus: wo.parts.status, quantity });
  }
}

/** The quantity a list of demands commits: the reserved, kitted and staged ones. */
export function committedBy(demands: readonly Demand[] | undefined): number {
  let n = 0;
  for (const d of demands ?? []) if (COMMITTING.has(d.partStatus)) n += d.quantity;
  return n;
}

/** On hand minus what other visible work orders commit, per stock key of `keys`. */
export function availableTo(org: Org, keys: ReadonlySet<string>, workOrderId: string): Map<string, number> {
  const demands = demandsOn(org, keys, workOrderId);
  const out = new Map<string, number>();
  for (const key of keys) out.set(key, (org.stock.get(key) ?? 0) - committedBy(demands.get(key)));
  return out;
}

/**
 * The stock keys where `needed` (extra quantity per key the work order would take) exceeds what is
 * available to it; empty when everything fits.
 */
export function shortfalls(org: Org, workOrderId: string, needed: ReadonlyMap<string, number>): string[] {
  const positive = new Set([...needed].filter(([, n]) => n > 0).map(([k]) => k));
  const available = availableTo(org, positive, workOrderId);
  return [...positive].filter((k) => needed.get(k)! > available.get(k)!);
}
