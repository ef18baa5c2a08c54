/**
 * Records the mock keeps, one kind per family. A row holds the public representation (`data`, typed by
 * the spec's generated types and serialized as-is) beside internal state the API never shows.
 * Rows are immutable values: a write replaces the row (and its `data`), which also invalidates the
 * cached JSON of the old `data` (see http/json-cache.ts).
 */
import type { components } from '../../spec/generated/api.ts';
import type { Module } from '../../contract/openapi.ts';

export type Schemas = components['schemas'];
export type PartStatus = Schemas['PartStatus'];
export type CustomFieldEntity = 'assets' | 'locations' | 'parts' | 'workOrders';
export type ExtraFields = Schemas['ExtraFields'];

export interface User { id: string; name: string; active: boolean }
export interface Team { id: string; name: string }

/** Organization settings (docs/design.md §4, control API; fixtures/seed/organizations.yaml): currency, cost tracking, staging, unit-cost overrides. */
export interface OrgSettings {
  currency: string;
  costTracking: boolean;
  /** Staging settings: a false entry hides that part status. */
  staging: { kitted: boolean; staged: boolean };
  unitCostOverrides: boolean;
}

/** An organization API key; only the SHA-256 of the secret is kept (Authentication 4). */
export interface ApiKey {
  id: string;
  orgId: string;
  prefix: 'live' | 'test';
  hash: string;
  scopes: ReadonlySet<string>;
  label: string;
  revokedAt?: number;
  expiresAt?: number;
}

export interface MeterRow {
  id: string;
  data: Schemas['Meter'];
  usedByAutomation: boolean;
}

export interface ReadingRow {
  id: string;
  /** `reading_at` in epoch ms, the first sort key of readings. */
  at: number;
  data: Schemas['MeterReading'];
}

/** One row of a parts section, with the state behind the public item. */
export interface PartsLine {
  id: string;
  partId: string;
  locationId: string;
  quantity: number;
  quantityUsed: number | null;
  unitCostMinor: number | null;
  /** Set when the line was issued: what it was, as it was then. */
  issued?: { at: string; quantity: number; partName: string; partNumber: string | null; locationName: string; locationArea: string | null; kind: 'issue' | 'completion' | 'correction'; unitCostMinor: number | null };
}

/** The state of a work order's parts section; `aggregateVersion` is derived from it. */
export interface PartsState {
  status: PartStatus;
  lines: PartsLine[];
  /** idempotencyKey → the command's fingerprint and the response it got. */
  idempotency: Map<string, { fingerprint: string; status: number; body: string }>;
}

export interface WorkOrderRow {
  id: string;
  /**
   * The public record, `extraFields` included (the list view omits it); `costs` is computed on read.
   * `previous_id`/`next_id` hold the link while the linked work order is available, else null.
   */
  data: Omit<Schemas['WorkOrder'], 'costs'>;
  deletedAt?: string;
  parts: PartsState;
  labor: Array<{ user_id: string; rate_minor: number; minutes: number }>;
  purchaseCostMinor: number;
}

export interface ExpenseRow {
  id: string;
  workOrderId: string;
  data: Schemas['ExpenseEntry'];
  retiredAt?: string;
}

export interface WorkRequestRow {
  id: string;
  /** The public record without the expandable `asset`, `location`, `workOrder`. */
  data: Schemas['WorkRequest'];
  deletedAt?: string;
  /** Stored upload bytes by attachment id (never served; metadata only). */
  files: Map<string, number>;
}

export interface PortalRow { id: string; data: Schemas['Portal'] }

export interface AssetRow {
  id: string;
  /** The public record; `sub_asset_count` is computed on read. */
  data: Omit<Schemas['Asset'], 'sub_asset_count'>;
  archived: boolean;
}

export interface LocationRow {
  id: string;
  /** The public record; `childrenIds` is computed on read. */
  data: Omit<Schemas['Location'], 'childrenIds'>;
}

export interface PartRow {
  id: string;
  data: Omit<Schemas['Part'], 'asset_ids'>;
  archived: boolean;
  /** Unit cost in minor units of the organization's currency, or null when none is known. */
  unitCostMinor: number | null;
}

export interface IdentifierRow {
  id: string;
  data: Schemas['Identifier'];
  retiredAt?: string;
}

export interface CustomFieldRow {
  id: number;
  entity: CustomFieldEntity;
  data: Schemas['CustomFieldDefinition'];
  archivedAt?: string;
}

/** A stock movement of the ledger: what changed on hand, and why. */
export interface StockMovement {
  at: string;
  partId: string;
  locationId: string;
  delta: number;
  reason: 'seed' | 'issue' | 'return' | 'correction' | 'completion';
  workOrderId?: string;
  lineId?: string;
}

export const MODULE_OF_ENTITY: Partial<Record<CustomFieldEntity | 'part' | 'asset' | 'location', Module>> = {
  parts: 'parts_inventory',
  part: 'parts_inventory',
};
