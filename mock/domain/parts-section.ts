/**
 * The work-order parts section (Resources › Work-order parts section; States and transitions › Part
 * status, Part usage; Endpoints › Work-order parts). Work orders call in here when they complete.
 *
 * One section per work order: a part status and rows (lines). What the description does not show is
 * inferred here, and marked so in spec/openapi.yaml and spec/requirements.yaml:
 * - `aggregateVersion` is the SHA-256 of the canonical JSON of the work order id, status and rows.
 * - `allowedTransitions`: every status the staging settings show except the current one; from `issued`
 *   only `assigned`, and only while the work order is active; none on an inactive work order; with Parts
 *   Inventory disabled no committing status (reserved, kitted, staged, issued) — a transition to one is
 *   refused with 403 `module_disabled`, any other status outside the list with 409 `transition_not_allowed`.
 * - A transition to a committing status or `issued` needs each row's quantity available (else 409
 *   `insufficient_stock`; API keys cannot override overcommit). Issuing deducts every row at once.
 * - `replace` on an issued section edits usage (a row's quantity is its used quantity): stock moves by
 *   the difference; removed rows return theirs, new rows are issued at once. Only an issued section can
 *   be edited on an inactive work order (else 409 `work_order_inactive`).
 * - A row's `unitCostMinor` is its effective unit cost: the override, else the part's cost when the row
 *   was written. Overrides need the organization setting (else 409 `unit_cost_override_not_allowed`).
 * - Completion issues a section with rows that is not issued yet (movement `completion`), unless Parts
 *   Inventory is disabled: a disabled module never permits new stock commitments.
 */
import { createHash } from 'node:crypto';
import type { Org } from '../store/org.ts';
import type { LocationRow, PartStatus, PartsLine, PartsState, Schemas, StockMovement, WorkOrderRow } from '../store/types.ts';
import { conflict, invalid, notFound } from '../http/problem.ts';
import { requireModule } from './modules.ts';
import { isActive } from './work-order-state.ts';
import { COMMITTING, committedBy, demandsOn, onHand, quantitiesByStock, recordMovements, shortfalls, stockKey } from './stock.ts';

type Section = Schemas['PartsSection'];
type Item = Schemas['PartsItem'];
type IssueKind = NonNullable<PartsLine['issued']>['kind'];

/** One row of a `replace` command. */
export type ReplaceItem = Schemas['PartsReplaceCommand']['items'][number];

/** Part statuses in their lifecycle order (the order of `allowedTransitions`). */
export const PART_STATUSES: readonly PartStatus[] = ['assigned', 'reserved', 'kitted', 'staged', 'issued'];

/** A new work order's section: assigned, no rows. */
export function emptyParts(): PartsState {
  return { status: 'assigned', lines: [], idempotency: new Map() };
}

/** JSON with object keys sorted at every level: equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256, hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The section's `aggregateVersion`: SHA-256 of its canonical state (inferred). */
export function aggregateVersion(row: WorkOrderRow): string {
  const { status, lines } = row.parts;
  return sha256(canonicalJson({
    workOrderId: row.id,
    status,
    lines: lines.map((l) => [l.id, l.partId, l.locationId, l.quantity, l.quantityUsed, l.unitCostMinor]),
  }));
}

/** Whether moving to `status` takes stock: it commits (reserved, kitted, staged) or deducts (issued). */
function takesStock(status: PartStatus): boolean {
  return COMMITTING.has(status) || status === 'issued';
}

function shownByStaging(org: Org, status: PartStatus): boolean {
  return (status !== 'kitted' || org.settings.staging.kitted) && (status !== 'staged' || org.settings.staging.staged);
}

/** The statuses the section may move to now (Part status; staging settings; module rules). */
export function allowedTransitions(org: Org, row: WorkOrderRow): PartStatus[] {
  if (!isActive(row)) return [];
  const current = row.parts.status;
  if (current === 'issued') return ['assigned'];
  const moduleOn = org.hasModule('parts_inventory');
  return PART_STATUSES.filter((s) => s !== current && shownByStaging(org, s) && (moduleOn || !takesStock(s)));
}

function areaOf(org: Org, location: LocationRow | undefined): string | null {
  const parentId = location?.data.parentId;
  return parentId ? org.locations.getAny(parentId)?.data.name ?? null : null;
}

function money(org: Org, minor: number | null): Schemas['Money'] | null {
  return minor === null ? null : { minor, currency: org.settings.currency };
}

function readinessOf(line: PartsLine, available: number): string {
  if (line.issued) return 'issued';
  return available >= line.quantity ? 'ready' : available > 0 ? 'short' : 'out_of_stock';
}

/** The section as GET and POST answer it (no envelope). */
export function sectionView(org: Org, row: WorkOrderRow): Section {
  const { status, lines } = row.parts;
  const keys = new Set(lines.map((l) => stockKey(l.partId, l.locationId)));
  const demands = demandsOn(org, keys, row.id);
  const canViewCost = org.settings.costTracking;
  const assetId = row.data.asset_id;
  let fits = 0;
  const items = lines.map((line): Item => {
    const key = stockKey(line.partId, line.locationId);
    const inStock = onHand(org, line.partId, line.locationId);
    const available = inStock - committedBy(demands.get(key));
    if (line.quantity <= available) fits++;
    const part = org.parts.getAny(line.partId);
    const location = org.locations.getAny(line.locationId);
    const item: Item = {
      id: line.id,
      partId: line.partId,
      locationId: line.locationId,
      quantity: line.quantity,
      quantityUsed: line.quantityUsed,
      ...(canViewCost ? { unitCost: money(org, line.unitCostMinor) } : {}),
      part: part ? { id: part.id, name: part.data.name, partNumber: part.data.part_number ?? null, imageUrl: part.data.image_url ?? null, imageBlur: null, archived: part.archived } : null,
      location: { id: line.locationId, name: location?.data.name ?? '', area: areaOf(org, location), imageUrl: null, imageBlur: null },
      inStockQuantity: inStock,
      availableQuantity: available,
      readiness: readinessOf(line, available),
      linkable: assetId ? org.assetParts.has(`${assetId} ${line.partId}`) : false,
    };
    if (line.issued) {
      const s = line.issued;
      item.issuedSnapshot = {
        quantityUsed: s.quantity, issuedAt: s.at, partName: s.partName, partNumber: s.partNumber,
        locationName: s.locationName, locationArea: s.locationArea, snapshotKind: s.kind,
        ...(canViewCost ? { unitCost: money(org, s.unitCostMinor) } : {}),
      };
    }
    return item;
  });
  const partAvailability = status === 'issued' || fits === lines.length ? 'available' : fits === 0 ? 'unavailable' : 'partial';
  const competingDemands = [...demands.values()].flat().map((d) => ({
    workOrderId: d.workOrder.id, title: d.workOrder.data.title, partId: d.partId, locationId: d.locationId, partStatus: d.partStatus, quantity: d.quantity,
  }));
  const allowed = allowedTransitions(org, row);
  const editable = isActive(row) || status === 'issued';
  return {
    workOrderId: row.id,
    partStatus: status,
    partAvailability,
    aggregateVersion: aggregateVersion(row),
    items,
    competingDemands,
    capabilities: {
      canEditParts: editable,
      canRemoveParts: editable && lines.length > 0,
      canTransitionPartStatus: allowed.length > 0,
      canRelease: COMMITTING.has(status) && allowed.includes('assigned'),
      canOverrideOvercommit: false,
      canReconcile: editable && status === 'issued',
      canViewCost,
      canOverrideUnitCost: org.settings.unitCostOverrides,
      allowedTransitions: allowed,
    },
    historyOnly: !isActive(row),
  };
}

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
