/**
 * The mock's state as one JSON document (spec/mock-state.schema.json; docs/integrators.md, "State and
 * replicas"): a world part (clock, cursor signing key, id counters, seed, fixture ids) and one part per
 * organization (its settings, its API keys by hash, every record). `GET/PUT /__mock/state` and
 * `--seed-file` use it; the state stores keep the same records as rows (rows.ts).
 *
 * Records are kept as the mock holds them (the public `data` beside internal fields); Maps and Sets
 * become arrays (pairs where a client chose the keys, e.g. idempotency keys).
 */
import { idempotencyRecordsOf } from '../domain/parts-section.ts';
import type { Module } from '../../contract/openapi.ts';
import { Clock } from '../store/clock.ts';
import { Org } from '../store/org.ts';
import { World } from '../store/world.ts';
import type {
  ApiKey, AssetRow, CustomFieldEntity, CustomFieldRow, ExpenseRow, IdentifierRow, LocationRow, MeterRow, OrgSettings,
  PartRow, PartsState, PortalRow, ReadingRow, StockMovement, Team, User, WorkOrderRow, WorkRequestRow,
} from '../store/types.ts';

export const STATE_FORMAT = 'mms-mock-state';
export const STATE_VERSION = 1;

/** An API key as stored: only the SHA-256 of its secret (Authentication 4). */
export interface KeyDoc { id: string; prefix: 'live' | 'test'; hash: string; scopes: string[]; label: string; revokedAt?: number; expiresAt?: number }

/** Id counters at the time a part was written; a loader continues after them. */
export interface CountersDoc { id: number; customField: number }

export type StoredWorkOrder = Omit<WorkOrderRow, 'parts'> & { parts: Omit<PartsState, 'idempotency'> & { idempotency: Array<[string, { fingerprint: string; status: number; body: string }]> } };
export type StoredWorkRequest = Omit<WorkRequestRow, 'files'> & { files: Array<[string, number]> };

/** One organization's state. */
export interface OrgDoc {
  id: string;
  name: string;
  modules: Record<Module, boolean>;
  settings: OrgSettings;
  keys: KeyDoc[];
  counters: CountersDoc;
  users: User[];
  teams: Team[];
  meters: MeterRow[];
  readings: Array<[string, ReadingRow[]]>;
  workOrders: StoredWorkOrder[];
  expenses: ExpenseRow[];
  workRequests: StoredWorkRequest[];
  portals: PortalRow[];
  assets: AssetRow[];
  locations: LocationRow[];
  parts: PartRow[];
  assetParts: string[];
  identifiers: IdentifierRow[];
  identifierByValue: Array<[string, string]>;
  customFields: Record<CustomFieldEntity, CustomFieldRow[]>;
  stock: Array<[string, number]>;
  movements: StockMovement[];
}

/** What belongs to no organization. */
export interface WorldDoc {
  seed: number;
  /** Milliseconds the clock was advanced through the control API. */
  clockAdvancedMs: number;
  /** The cursor signing key, base64url (cursors outlive restarts within their lifetime). */
  cursorSecret: string;
  counters: CountersDoc;
  /** Fixture ids recorded by the seeders (the target profile's `fixtures`). */
  fixtures: Record<string, unknown>;
}

/** The whole document; without `world` it holds only organizations (one organization's export). */
export interface StateDocument {
  format: typeof STATE_FORMAT;
  version: typeof STATE_VERSION;
  world?: WorldDoc;
  organizations: OrgDoc[];
}

/**
 * The state of organization `org` of `world`. `stored` false leaves work orders and work requests as
 * the mock holds them (their Maps not yet pairs: a streamed export converts them chunk by chunk).
 */
export function orgToDoc(world: World, org: Org, stored = true): OrgDoc {
  const keys: KeyDoc[] = [];
  for (const k of world.keysById.values()) {
    if (k.orgId !== org.id) continue;
    keys.push(keyToDoc(k));
  }
  return {
    id: org.id,
    name: org.name,
    modules: org.modules,
    settings: org.settings,
    keys,
    counters: counters(world),
    users: [...org.users.values()],
    teams: [...org.teams.values()],
    meters: [...org.meters.all()],
    readings: [...org.readings],
    workOrders: stored ? org.workOrders.all().map(storedWorkOrder) : ([...org.workOrders.all()] as unknown as StoredWorkOrder[]),
    expenses: [...org.expenses.all()],
    workRequests: stored ? org.workRequests.all().map(storedWorkRequest) : ([...org.workRequests.all()] as unknown as StoredWorkRequest[]),
    portals: [...org.portals.all()],
    assets: [...org.assets.all()],
    locations: [...org.locations.all()],
    parts: [...org.parts.all()],
    assetParts: [...org.assetParts],
    identifiers: [...org.identifiers.all()],
    identifierByValue: [...org.identifierByValue],
    customFields: org.customFields,
    stock: [...org.stock],
    movements: org.movements,
  };
}

/** An API key as stored (its secret's hash, never the secret). */
export function keyToDoc(k: ApiKey): KeyDoc {
  return { id: k.id, prefix: k.prefix, hash: k.hash, scopes: [...k.scopes], label: k.label, ...(k.revokedAt !== undefined && { revokedAt: k.revokedAt }), ...(k.expiresAt !== undefined && { expiresAt: k.expiresAt }) };
}

/** A work order as stored (its idempotency Map as pairs). */
export function storedWorkOrder(w: WorkOrderRow): StoredWorkOrder {
  return { ...w, parts: { ...w.parts, idempotency: [...w.parts.idempotency] } };
}

/** A work request as stored (its files Map as pairs). */
export function storedWorkRequest(w: WorkRequestRow): StoredWorkRequest {
  return { ...w, files: [...w.files] };
}

/** A stored work order made a record in place (its idempotency pairs a Map: the shared empty one when none); returns it. */
export function workOrderFromStored(w: StoredWorkOrder): WorkOrderRow {
  const row = w as unknown as WorkOrderRow;
  row.parts.idempotency = idempotencyRecordsOf(w.parts.idempotency);
  return row;
}

/** A stored work request made a record in place (its file pairs a Map); returns it. */
export function workRequestFromStored(w: StoredWorkRequest): WorkRequestRow {
  const row = w as unknown as WorkRequestRow;
  row.files = new Map(w.files);
  return row;
}

/** The world part of `world`. */
export function worldToDoc(world: World): WorldDoc {
  return { seed: world.seed, clockAdvancedMs: world.clock.advancedMs, cursorSecret: world.cursorSecret.toString('base64url'), counters: counters(world), fixtures: world.fixtures };
}

/** The state of `world` as one document: every organization with the world part, or only `orgId` (without it). */
export function exportState(world: World, orgId?: string): StateDocument {
  const orgs = orgId === undefined ? [...world.orgs.values()] : [world.orgs.get(orgId)!];
  return { format: STATE_FORMAT, version: STATE_VERSION, ...(orgId === undefined && { world: worldToDoc(world) }), organizations: orgs.map((o) => orgToDoc(world, o)) };
}

/** The world's id counters now. */
export function counters(world: World): CountersDoc {
  return { id: world.ids.last, customField: world.lastCustomFieldId };
}

/**
 * Puts organization `doc` into `world` (taking its objects: work orders and work requests are converted
 * in place, so `doc` is the caller's to give away), replacing an organization with its id and that organization's
 * keys; ids continue after the document's counters. Throws an Error naming the field (`/keys/2/hash`)
 * when a key collides with another organization's or a record id repeats.
 */
export function loadOrg(world: World, doc: OrgDoc, at = ''): Org {
  const org = new Org(doc.id, doc.name, doc.modules, doc.settings);
  for (const u of doc.users) org.users.set(u.id, u);
  for (const t of doc.teams) org.teams.set(t.id, t);
  insertAll(org.meters, doc.meters, `${at}/meters`);
  for (const [meterId, rows] of doc.readings) org.readings.set(meterId, rows);
  insertAll(org.workOrders, doc.workOrders, `${at}/workOrders`, workOrderFromStored);
  insertAll(org.expenses, doc.expenses, `${at}/expenses`);
  insertAll(org.workRequests, doc.workRequests, `${at}/workRequests`, workRequestFromStored);
  insertAll(org.portals, doc.portals, `${at}/portals`);
  insertAll(org.assets, doc.assets, `${at}/assets`);
  insertAll(org.locations, doc.locations, `${at}/locations`);
  insertAll(org.parts, doc.parts, `${at}/parts`);
  for (const link of doc.assetParts) org.assetParts.add(link);
  insertAll(org.identifiers, doc.identifiers, `${at}/identifiers`);
  for (const [value, id] of doc.identifierByValue) org.identifierByValue.set(value, id);
  for (const entity of Object.keys(org.customFields) as CustomFieldEntity[]) org.customFields[entity].push(...(doc.customFields[entity] ?? []));
  for (const [k, n] of doc.stock) org.stock.set(k, n);
  org.movements.push(...doc.movements);
  doc.keys.forEach((k, i) => {
    const other = world.keyByHash(k.hash) ?? world.keysById.get(k.id);
    if (other && other.orgId !== doc.id) throw new Error(`${at}/keys/${i}: key ${k.id} (or its hash) belongs to organization ${other.orgId}`);
  });
  world.dropKeysOf(doc.id);
  for (const k of doc.keys) world.addKeyRecord(keyFromDoc(doc.id, k));
  world.orgs.set(doc.id, org);
  world.ids.continueAfter(doc.counters.id);
  world.continueCustomFieldsAfter(doc.counters.customField);
  return org;
}

/** Removes organization `orgId` and its keys from `world`. */
export function dropOrg(world: World, orgId: string): void {
  world.dropKeysOf(orgId);
  world.orgs.delete(orgId);
}

/** An API key record of organization `orgId` from its stored form. */
export function keyFromDoc(orgId: string, k: KeyDoc): ApiKey {
  return { id: k.id, orgId, prefix: k.prefix, hash: k.hash, scopes: new Set(k.scopes), label: k.label, ...(k.revokedAt !== undefined && { revokedAt: k.revokedAt }), ...(k.expiresAt !== undefined && { expiresAt: k.expiresAt }) };
}

/** Inserts `rows`, each first made a record by `toRow` (in place: no second copy of a large organization). */
function insertAll<S extends { id: string }, R extends { id: string } = S>(into: { insert(row: R): R; getAny(id: string): R | undefined }, rows: readonly S[], at: string, toRow: (stored: S) => R = (r) => r as unknown as R): void {
  rows.forEach((row, i) => {
    if (into.getAny(row.id)) throw new Error(`${at}/${i}/id: ${row.id} appears twice`);
    into.insert(toRow(shareStrings(row)));
  });
}

/**
 * A parsed record holding one copy of its repeated strings (JSON.parse makes a string per occurrence):
 * its `data.id` is its `id`, an `updated_at` equal to `created_at` is that string. Returns `row`.
 */
function shareStrings<S extends { id: string; data?: { id?: unknown; created_at?: unknown; updated_at?: unknown } }>(row: S): S {
  const data = row.data;
  if (data) {
    if (data.id === row.id) data.id = row.id;
    if (data.updated_at === data.created_at) data.updated_at = data.created_at;
  }
  return row;
}

/** Applies world part `doc` to `world` in place (clock, cursor key, counters, fixtures); `entropy` reseeds id tails. */
export function applyWorldDoc(world: World, doc: WorldDoc, entropy?: number): void {
  world.clock.restoreAdvance(doc.clockAdvancedMs);
  world.cursorSecret = Buffer.from(doc.cursorSecret, 'base64url');
  world.ids.continueAfter(doc.counters.id, entropy);
  world.continueCustomFieldsAfter(doc.counters.customField);
  for (const k of Object.keys(world.fixtures)) delete world.fixtures[k];
  Object.assign(world.fixtures, doc.fixtures);
}

/**
 * A new world from a whole document (`world` part required). `entropy` reseeds the id tails (replicas
 * and restarts issue ids no other process issued). Throws an Error naming the field on a collision.
 */
export function worldFromState(doc: StateDocument & { world: WorldDoc }, entropy?: number, clock = new Clock()): World {
  const world = new World(doc.world.seed, clock);
  applyWorldDoc(world, doc.world, entropy);
  doc.organizations.forEach((o, i) => loadOrg(world, o, `/organizations/${i}`));
  return world;
}
