/**
 * One organization's data: every lookup of the mock goes through the key's organization, so another
 * organization's ids are simply not found (404, never 403).
 */
import type { Module } from '../../contract/openapi.ts';
import { Collection } from './collection.ts';
import type {
  AssetRow, CustomFieldEntity, CustomFieldRow, ExpenseRow, IdentifierRow, LocationRow, MeterRow, OrgSettings,
  PartRow, PortalRow, ReadingRow, StockMovement, Team, User, WorkOrderRow, WorkRequestRow,
} from './types.ts';

/** The key of a part at a location in `org.stock` and in the `stock_demand` index. */
export function stockKey(partId: string, locationId: string): string {
  return `${partId} ${locationId}`;
}

/** The work-order list's filter fields and the stock keys of pending parts sections, indexed (an array field holds several values). */
const WORK_ORDER_INDEXES = {
  status: (w: WorkOrderRow) => w.data.status,
  type: (w: WorkOrderRow) => w.data.type,
  priority: (w: WorkOrderRow) => w.data.priority,
  asset_id: (w: WorkOrderRow) => w.data.asset_id,
  location_id: (w: WorkOrderRow) => w.data.location_id,
  assigned_to_user_id: (w: WorkOrderRow) => w.data.assigned_to_user_ids,
  assigned_to_team_id: (w: WorkOrderRow) => w.data.assigned_to_team_ids,
  /** The stock keys a section not yet issued places demands on. */
  stock_demand: (w: WorkOrderRow) => (w.parts.status === 'issued' ? null : w.parts.lines.map((l) => stockKey(l.partId, l.locationId))),
};

export class Org {
  readonly users = new Map<string, User>();
  readonly teams = new Map<string, Team>();
  readonly meters = new Collection<MeterRow>();
  /** meter id → its readings, ordered by `reading_at`, then id. */
  readonly readings = new Map<string, ReadingRow[]>();
  /** Indexed by the fields of the list's filters (Endpoints › Work orders (native); handlers/work-orders.ts). */
  readonly workOrders = new Collection<WorkOrderRow>((w) => w.deletedAt === undefined, WORK_ORDER_INDEXES);
  /** Indexed by work order: a work order's costs and expense list read its own entries only. */
  readonly expenses = new Collection<ExpenseRow>((e) => e.retiredAt === undefined, { work_order_id: (e) => e.workOrderId });
  readonly workRequests = new Collection<WorkRequestRow>((w) => w.deletedAt === undefined);
  readonly portals = new Collection<PortalRow>();
  readonly assets = new Collection<AssetRow>((a) => !a.archived);
  readonly locations = new Collection<LocationRow>();
  readonly parts = new Collection<PartRow>((p) => !p.archived);
  /** `${assetId} ${partId}` of every asset–part link. */
  readonly assetParts = new Set<string>();
  readonly identifiers = new Collection<IdentifierRow>((i) => i.retiredAt === undefined);
  /** exact payload → identifier id, for active identifiers. */
  readonly identifierByValue = new Map<string, string>();
  readonly customFields: Record<CustomFieldEntity, CustomFieldRow[]> = { assets: [], locations: [], parts: [], workOrders: [] };
  /** `stockKey(partId, locationId)` → quantity on hand. */
  readonly stock = new Map<string, number>();
  /** Every stock movement, corrections beside the originals (States and transitions › Part usage). */
  readonly movements: StockMovement[] = [];

  /**
   * A state store's change tracker (mock/state/rows.ts): told the kind and id of every record a write
   * changes. Collections report their own writes; the other containers' writers call it. Unset (the
   * memory store), a writer's `org.changed?.(…)` costs one check.
   */
  changed?: (kind: string, id: string) => void;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly modules: Record<Module, boolean>,
    readonly settings: OrgSettings,
  ) {}

  /** Installs `report` as this organization's change tracker, its collections' writes included. */
  track(report: (kind: string, id: string) => void): void {
    this.changed = report;
    this.meters.observer = (id) => report('meter', id);
    this.workOrders.observer = (id) => report('workOrder', id);
    this.expenses.observer = (id) => report('expense', id);
    this.workRequests.observer = (id) => report('workRequest', id);
    this.portals.observer = (id) => report('portal', id);
    this.assets.observer = (id) => report('asset', id);
    this.locations.observer = (id) => report('location', id);
    this.parts.observer = (id) => report('part', id);
    this.identifiers.observer = (id) => report('identifier', id);
  }

  /** Whether a feature module is enabled for this organization. */
  hasModule(module: Module): boolean {
    return this.modules[module];
  }
}
