/**
 * The work-order parts section (Resources › Work-order parts section; States and transitions › Part
 * status, Part usage; Endpoints › Work-order parts): the section as read. Its commands, and the issue on
 * completion, are parts-commands.ts.
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
import type { LocationRow, PartStatus, PartsLine, PartsState, Schemas, WorkOrderRow } from '../store/types.ts';
import { isActive } from './work-order-state.ts';
import { COMMITTING, committedBy, demandsOn, onHand, stockKey } from './stock.ts';

type Section = Schemas['PartsSection'];
type Item = Schemas['PartsItem'];
/** How a row came to be issued. */
export type IssueKind = NonNullable<PartsLine['issued']>['kind'];

/** One row of a `replace` command. */
export type ReplaceItem = Schemas['PartsReplaceCommand']['items'][number];

/** Part statuses in their lifecycle order (the order of `allowedTransitions`). */
export const PART_STATUSES: readonly PartStatus[] = ['assigned', 'reserved', 'kitted', 'staged', 'issued'];

type IdempotencyRecords = PartsState['idempotency'];
type IdempotencyRecord = IdempotencyRecords extends Map<string, infer V> ? V : never;

/**
 * The idempotency records of a section no command has reached yet: one shared, unchangeable map (a
 * command's write copies it, handlers/work-order-parts.ts), so a million work orders do not hold a
 * million empty maps (docs/integrators.md, "Large tenants"). Changing it in place throws.
 */
class NoIdempotencyRecords extends Map<string, IdempotencyRecord> {
  private sealed = false;
  constructor() {
    super();
    this.sealed = true;
  }
  override set(key: string, value: IdempotencyRecord): this {
    if (this.sealed) throw new Error('the shared empty idempotency records are read-only: copy them (new Map(...)) to write');
    return super.set(key, value);
  }
  override delete(): boolean {
    throw new Error('the shared empty idempotency records are read-only');
  }
  override clear(): void {
    throw new Error('the shared empty idempotency records are read-only');
  }
}
const NO_IDEMPOTENCY_RECORDS: IdempotencyRecords = new NoIdempotencyRecords();

/** Stored idempotency records (key, record) as the section's map: the shared empty one when there are none. */
export function idempotencyRecordsOf(pairs: Iterable<[string, IdempotencyRecord]>): IdempotencyRecords {
  const records = new Map(pairs);
  return records.size === 0 ? NO_IDEMPOTENCY_RECORDS : records;
}

/** A new work order's section: assigned, no rows, no idempotency records (the shared empty map). */
export function emptyParts(): PartsState {
  return { status: 'assigned', lines: [], idempotency: NO_IDEMPOTENCY_RECORDS };
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
/** Whether a status deducts or commits stock. */
export function takesStock(status: PartStatus): boolean {
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

/** A location's area name, or null. */
export function areaOf(org: Org, location: LocationRow | undefined): string | null {
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
