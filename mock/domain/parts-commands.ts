/**
 * The work-order parts commands (Endpoints › Work-order parts: `transition` and `replace`; States and
 * transitions › Part status, Part usage) and the issue on completion ("Work order with pending parts,
 * work order completion: pending parts become issued; stock deducted"). The section they change and what
 * is inferred about it: parts-section.ts.
 */
import type { Org } from '../store/org.ts';
import type { PartStatus, PartsLine, StockMovement, WorkOrderRow } from '../store/types.ts';
import { conflict, invalid, notFound } from '../http/problem.ts';
import { requireModule } from './modules.ts';
import { isActive } from './work-order-state.ts';
import { allowedTransitions, areaOf, takesStock, type IssueKind, type ReplaceItem } from './parts-section.ts';
import { COMMITTING, committedBy, demandsOn, onHand, quantitiesByStock, recordMovements, shortfalls, stockKey } from './stock.ts';

/** What a line was when issued (or corrected): names and cost as of `at`. */
function snapshot(org: Org, line: PartsLine, kind: IssueKind, at: string): NonNullable<PartsLine['issued']> {
  const part = org.parts.getAny(line.partId);
  const location = org.locations.getAny(line.locationId);
  return {
    at, quantity: line.quantity, kind, unitCostMinor: line.unitCostMinor,
    partName: part?.data.name ?? line.partId, partNumber: part?.data.part_number ?? null,
    locationName: location?.data.name ?? line.locationId, locationArea: areaOf(org, location),
  };
}

function movement(row: WorkOrderRow, line: PartsLine, delta: number, reason: StockMovement['reason'], at: string, partId = line.partId, locationId = line.locationId): StockMovement {
  return { at, partId, locationId, delta, reason, workOrderId: row.id, lineId: line.id };
}

/** Deducts every line at once and marks it issued (`kind`: a transition's issue or a completion). */
function issueAll(org: Org, row: WorkOrderRow, kind: 'issue' | 'completion', at: string): WorkOrderRow {
  const lines = row.parts.lines.map((l) => ({ ...l, quantityUsed: l.quantity, issued: snapshot(org, l, kind, at) }));
  recordMovements(org, lines.map((l) => movement(row, l, -l.quantity, kind, at)));
  return { ...row, parts: { ...row.parts, status: 'issued', lines } };
}

function refuseShortfall(short: string[]): never {
  const [partId, locationId] = short[0]!.split(' ');
  throw conflict(`Not enough stock of part ${partId} at location ${locationId} for this command.`, 'insufficient_stock');
}

/** A `transition` command (States and transitions › Part status). Returns the row to store. */
export function transition(org: Org, row: WorkOrderRow, target: PartStatus, at: string): WorkOrderRow {
  const { status, lines } = row.parts;
  if (takesStock(target)) requireModule(org, 'parts_inventory');
  if (!allowedTransitions(org, row).includes(target)) {
    throw conflict(`The parts section cannot move from ${status} to ${target} now; see capabilities.allowedTransitions.`, 'transition_not_allowed');
  }
  if (target === 'assigned') {
    if (status !== 'issued') return { ...row, parts: { ...row.parts, status: 'assigned' } };
    recordMovements(org, lines.map((l) => movement(row, l, l.quantityUsed ?? 0, 'return', at)));
    return { ...row, parts: { ...row.parts, status: 'assigned', lines: lines.map(({ issued: _returned, ...l }) => ({ ...l, quantityUsed: null })) } };
  }
  const short = shortfalls(org, row.id, quantitiesByStock(lines));
  if (short.length) refuseShortfall(short);
  if (target === 'issued') return issueAll(org, row, 'issue', at);
  return { ...row, parts: { ...row.parts, status: target } };
}

/** Checks a `replace` command's rows: known row ids (400), parts and locations of the organization (404), overrides (409). */
function checkReplace(org: Org, row: WorkOrderRow, items: readonly ReplaceItem[]): void {
  const byId = new Map(row.parts.lines.map((l) => [l.id, l]));
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (item.id === undefined) return;
    if (!byId.has(item.id)) throw invalid('body', `/items/${i}/id`, 'is not the id of a row of this section');
    if (seen.has(item.id)) throw invalid('body', `/items/${i}/id`, 'names a row already named by another item');
    seen.add(item.id);
  });
  for (const item of items) {
    const kept = item.id !== undefined && byId.get(item.id)!.partId === item.partId;
    if (!org.parts.get(item.partId) && !(kept && org.parts.getAny(item.partId))) throw notFound(`Part ${item.partId}`);
    if (!org.locations.get(item.locationId)) throw notFound(`Location ${item.locationId}`);
  }
  if (items.some((i) => i.unitCostMinor !== undefined) && !org.settings.unitCostOverrides) {
    throw conflict('Unit-cost overrides are not allowed by the organization settings.', 'unit_cost_override_not_allowed');
  }
}

/**
 * Stock movements of a `replace` on an issued section (Part usage): the difference per kept row
 * (`correction`), the whole quantity of removed rows back, new rows issued at once.
 */
function usageMovements(row: WorkOrderRow, lines: PartsLine[], at: string): StockMovement[] {
  const next = new Map(lines.map((l) => [l.id, l]));
  const out: StockMovement[] = [];
  for (const old of row.parts.lines) {
    const now = next.get(old.id);
    const used = old.quantityUsed ?? 0;
    if (!now || now.partId !== old.partId || now.locationId !== old.locationId) {
      out.push(movement(row, old, used, 'correction', at));
      if (now) out.push(movement(row, now, -now.quantity, 'correction', at));
    } else if (now.quantity !== used) out.push(movement(row, now, used - now.quantity, 'correction', at));
  }
  const before = new Set(row.parts.lines.map((l) => l.id));
  for (const l of lines) if (!before.has(l.id)) out.push(movement(row, l, -l.quantity, 'issue', at));
  return out;
}

/** Extra quantity per stock key a change would take: committed quantity growth, or net deductions. */
function growth(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, n] of after) if (n > (before.get(key) ?? 0)) out.set(key, n);
  return out;
}

function netDeductions(movements: readonly StockMovement[]): Map<string, number> {
  const net = new Map<string, number>();
  for (const m of movements) {
    const key = stockKey(m.partId, m.locationId);
    net.set(key, (net.get(key) ?? 0) - m.delta);
  }
  return net;
}

/**
 * A `replace` command (Endpoints › Work-order parts: the complete desired array; ids retained, omitted
 * rows removed). `newId` makes ids for rows without one. Returns the row to store.
 */
export function replaceLines(org: Org, row: WorkOrderRow, items: readonly ReplaceItem[], at: string, newId: () => string): WorkOrderRow {
  const { status } = row.parts;
  if (!isActive(row) && status !== 'issued') {
    throw conflict('The work order is not active; only issued usage can be edited.', 'work_order_inactive');
  }
  checkReplace(org, row, items);
  const old = new Map(row.parts.lines.map((l) => [l.id, l]));
  const lines = items.map((item): PartsLine => {
    const kept = item.id === undefined ? undefined : old.get(item.id);
    const line: PartsLine = {
      id: kept?.id ?? newId(),
      partId: item.partId,
      locationId: item.locationId,
      quantity: item.quantity,
      quantityUsed: status === 'issued' ? item.quantity : null,
      unitCostMinor: item.unitCostMinor ?? org.parts.getAny(item.partId)?.unitCostMinor ?? null,
    };
    if (status !== 'issued') return line;
    const same = kept?.issued && kept.partId === line.partId && kept.locationId === line.locationId;
    if (same && kept.quantityUsed === line.quantity) return { ...line, issued: kept.issued };
    if (same) return { ...line, issued: { ...kept.issued!, quantity: line.quantity, at, kind: 'correction', unitCostMinor: line.unitCostMinor } };
    return { ...line, issued: snapshot(org, line, kept ? 'correction' : 'issue', at) };
  });
  const movements = status === 'issued' ? usageMovements(row, lines, at) : [];
  const extra = status === 'issued' ? netDeductions(movements) : COMMITTING.has(status) ? growth(quantitiesByStock(row.parts.lines), quantitiesByStock(lines)) : new Map<string, number>();
  if ([...extra.values()].some((n) => n > 0)) {
    requireModule(org, 'parts_inventory');
    const short = shortfalls(org, row.id, extra);
    if (short.length) refuseShortfall(short);
  }
  recordMovements(org, movements);
  return { ...row, parts: { ...row.parts, lines } };
}

/**
 * Completing a work order issues its pending parts and deducts stock (States and transitions: "Work
 * order with pending parts — completion — pending parts become issued"). Returns the row to store.
 */
export function issuePendingParts(org: Org, row: WorkOrderRow, now: string): WorkOrderRow {
  const { status, lines } = row.parts;
  if (status === 'issued' || lines.length === 0 || !org.hasModule('parts_inventory')) return row;
  return issueAll(org, row, 'completion', now);
}
