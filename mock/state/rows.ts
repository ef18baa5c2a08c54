/**
 * The state stores' row form (docs/integrators.md, "State and replicas"): the state as rows keyed by
 * (organization, kind, id), each holding one record's JSON as the state document has it (document.ts),
 * so a write stores only the rows it changed:
 * - one row per record: `meter`, `reading` (one reading, not its meter's list), `workOrder`, `expense`,
 *   `workRequest`, `portal`, `asset`, `location`, `part`, `identifier`, `customField` (`entity id`),
 *   `user`, `team`, `key` (by hash, never the secret), `assetPart` (`assetId partId`, doc `1`),
 *   `identifierValue` (payload → identifier id), `stock` (`partId locationId` → on hand),
 *   `movement` (ledger position → movement); a reading's id is `meterId readingId`;
 * - one `org` row per organization (name, modules, settings, id counters, position among organizations);
 * - one world row (organization WORLD_ORG, kind `world`): document.ts WorldDoc.
 * Org.track's tracker reports (kind, id) of what a write changed; `rowDoc` reads its value now
 * (undefined: it is gone, the row is deleted).
 */
import type { Org } from '../store/org.ts';
import type { CustomFieldEntity, CustomFieldRow, ReadingRow, StockMovement } from '../store/types.ts';
import type { World } from '../store/world.ts';
import { counters, keyToDoc, loadOrg, storedWorkOrder, storedWorkRequest, type CountersDoc, type KeyDoc, type OrgDoc } from './document.ts';

/** The organization column of the world row. */
export const WORLD_ORG = '';
export const WORLD_KIND = 'world';

/** The `org` row: what an organization is besides its records. */
export interface OrgRowDoc extends Pick<OrgDoc, 'name' | 'modules' | 'settings'> { counters: CountersDoc; pos: number }

/** Kinds held in an Org Collection, by the Collection's name. */
const COLLECTIONS = {
  meter: 'meters', workOrder: 'workOrders', expense: 'expenses', workRequest: 'workRequests', portal: 'portals',
  asset: 'assets', location: 'locations', part: 'parts', identifier: 'identifiers',
} as const;
type CollectionKind = keyof typeof COLLECTIONS;

const isCollection = (kind: string): kind is CollectionKind => Object.hasOwn(COLLECTIONS, kind);

/** The stored JSON of a record of a collection kind (Maps as pairs). */
function collectionDoc(kind: CollectionKind, row: object): string {
  if (kind === 'workOrder') return JSON.stringify(storedWorkOrder(row as Parameters<typeof storedWorkOrder>[0]));
  if (kind === 'workRequest') return JSON.stringify(storedWorkRequest(row as Parameters<typeof storedWorkRequest>[0]));
  return JSON.stringify(row);
}

/** The position of organization `org` among the world's organizations (their order in an export). */
export function orgPosition(world: World, org: Org): number {
  let i = 0;
  for (const id of world.orgs.keys()) {
    if (id === org.id) return i;
    i++;
  }
  return i;
}

/** The `org` row of `org` now. */
export function orgRowDoc(world: World, org: Org, pos = orgPosition(world, org)): string {
  const doc: OrgRowDoc = { name: org.name, modules: org.modules, settings: org.settings, counters: counters(world), pos };
  return JSON.stringify(doc);
}

/** The JSON of row (kind, id) of `org` as it is now, or undefined when that record no longer exists. */
export function rowDoc(world: World, org: Org, kind: string, id: string): string | undefined {
  if (isCollection(kind)) {
    const row = org[COLLECTIONS[kind]].getAny(id);
    return row && collectionDoc(kind, row);
  }
  switch (kind) {
    case 'org': return orgRowDoc(world, org);
    case 'reading': {
      const [meterId, readingId] = id.split(' ') as [string, string];
      const rows = org.readings.get(meterId) ?? [];
      // A new reading is most often the meter's latest: search from the end.
      for (let i = rows.length - 1; i >= 0; i--) if (rows[i]!.id === readingId) return JSON.stringify(rows[i]);
      return undefined;
    }
    case 'customField': {
      const [entity, n] = id.split(' ') as [CustomFieldEntity, string];
      const row = org.customFields[entity]?.find((r) => String(r.id) === n);
      return row && JSON.stringify(row);
    }
    case 'assetPart': return org.assetParts.has(id) ? '1' : undefined;
    case 'identifierValue': return json(org.identifierByValue.get(id));
    case 'stock': return json(org.stock.get(id));
    case 'movement': return json(org.movements[Number(id)]);
    case 'user': return json(org.users.get(id));
    case 'team': return json(org.teams.get(id));
    case 'key': {
      const key = world.keysById.get(id);
      return key && key.orgId === org.id ? JSON.stringify(keyToDoc(key)) : undefined;
    }
  }
  throw new Error(`unknown row kind ${kind}`);
}

function json(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

/** Every row of organization `org` as [kind, id, JSON], its `org` row first. */
export function* orgRows(world: World, org: Org, pos?: number): Generator<[string, string, string]> {
  yield ['org', org.id, orgRowDoc(world, org, pos)];
  for (const kind of Object.keys(COLLECTIONS) as CollectionKind[]) for (const row of org[COLLECTIONS[kind]].all()) yield [kind, row.id, collectionDoc(kind, row)];
  for (const [meterId, rows] of org.readings) for (const r of rows) yield ['reading', `${meterId} ${r.id}`, JSON.stringify(r)];
  for (const [entity, rows] of Object.entries(org.customFields)) for (const r of rows) yield ['customField', `${entity} ${r.id}`, JSON.stringify(r)];
  for (const link of org.assetParts) yield ['assetPart', link, '1'];
  for (const [value, id] of org.identifierByValue) yield ['identifierValue', value, JSON.stringify(id)];
  for (const [k, n] of org.stock) yield ['stock', k, JSON.stringify(n)];
  for (const [i, m] of org.movements.entries()) yield ['movement', String(i), JSON.stringify(m)];
  for (const u of org.users.values()) yield ['user', u.id, JSON.stringify(u)];
  for (const t of org.teams.values()) yield ['team', t.id, JSON.stringify(t)];
  for (const k of world.keysById.values()) if (k.orgId === org.id) yield ['key', k.id, JSON.stringify(keyToDoc(k))];
}

/**
 * One organization's rows put together as its state document part (document.ts OrgDoc, for loadOrg),
 * rows added in any order. Readings are ordered by (`reading_at`, id) per meter, custom fields and
 * movements by their number.
 */
export class OrgAssembly {
  private orgRow?: OrgRowDoc;
  private readonly doc: OrgDoc;
  private readonly readings = new Map<string, ReadingRow[]>();
  private readonly movements: Array<[number, StockMovement]> = [];

  constructor(readonly orgId: string) {
    this.doc = {
      id: orgId, name: '', modules: {} as OrgDoc['modules'], settings: {} as OrgDoc['settings'], keys: [], counters: { id: 0, customField: 0 },
      users: [], teams: [], meters: [], readings: [], workOrders: [], expenses: [], workRequests: [], portals: [], assets: [], locations: [],
      parts: [], assetParts: [], identifiers: [], identifierByValue: [], customFields: { assets: [], locations: [], parts: [], workOrders: [] }, stock: [], movements: [],
    };
  }

  /** Adds row (kind, id) with its JSON. */
  add(kind: string, id: string, json: string): void {
    const d = this.doc;
    if (isCollection(kind)) {
      (d[COLLECTIONS[kind]] as unknown[]).push(JSON.parse(json));
      return;
    }
    const value = JSON.parse(json) as unknown;
    switch (kind) {
      case 'org': this.orgRow = value as OrgRowDoc; break;
      case 'reading': {
        const r = value as ReadingRow;
        const list = this.readings.get(r.data.meter_id);
        if (list) list.push(r);
        else this.readings.set(r.data.meter_id, [r]);
        break;
      }
      case 'customField': { const r = value as CustomFieldRow; (d.customFields[r.entity] ??= []).push(r); break; }
      case 'assetPart': d.assetParts.push(id); break;
      case 'identifierValue': d.identifierByValue.push([id, value as string]); break;
      case 'stock': d.stock.push([id, value as number]); break;
      case 'movement': this.movements.push([Number(id), value as StockMovement]); break;
      case 'user': d.users.push(value as OrgDoc['users'][number]); break;
      case 'team': d.teams.push(value as OrgDoc['teams'][number]); break;
      case 'key': d.keys.push(value as KeyDoc); break;
      default: throw new Error(`unknown row kind ${kind}`);
    }
  }

  /** The organization's document and its position; throws when its `org` row is missing. */
  finish(): { doc: OrgDoc; pos: number } {
    const o = this.orgRow;
    if (!o) throw new Error(`organization ${this.orgId} has records but no org row`);
    const d = this.doc;
    Object.assign(d, { name: o.name, modules: o.modules, settings: o.settings, counters: o.counters });
    for (const m of d.meters) d.readings.push([m.id, sortReadings(this.readings.get(m.id) ?? [])]);
    const meters = new Set(d.meters.map((m) => m.id));
    for (const [meterId, rows] of this.readings) if (!meters.has(meterId)) d.readings.push([meterId, sortReadings(rows)]);
    for (const rows of Object.values(d.customFields)) rows.sort((a, b) => a.id - b.id);
    d.movements = this.movements.sort((a, b) => a[0] - b[0]).map(([, m]) => m);
    return { doc: d, pos: o.pos };
  }
}

function sortReadings(rows: ReadingRow[]): ReadingRow[] {
  return rows.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Orders `world.orgs` by the stored positions (rows are read by organization id, an export keeps the first order). */
export function orderOrgs(world: World, positions: ReadonlyMap<string, number>): void {
  const orgs = [...world.orgs.values()].sort((a, b) => (positions.get(a.id) ?? 0) - (positions.get(b.id) ?? 0));
  world.orgs.clear();
  for (const org of orgs) world.orgs.set(org.id, org);
}

/** A stored row as the stores read it. */
export interface StoredRow { org: string; kind: string; id: string; doc: string }

/**
 * Loads organizations from `rows` (grouped by organization, e.g. ordered by org, kind, id) into `world`,
 * one organization at a time (memory: the state plus one organization's parsed rows), each replacing
 * the organization with its id; when every organization was loaded, orders `world.orgs` by the stored positions. Returns the ids loaded.
 * Throws an Error naming the field when a record id repeats or a key collides (document.ts loadOrg).
 */
export function loadOrgRows(world: World, rows: Iterable<StoredRow>): string[] {
  const positions = new Map<string, number>();
  let assembly: OrgAssembly | undefined;
  const finish = (): void => {
    if (!assembly) return;
    const { doc, pos } = assembly.finish();
    loadOrg(world, doc, `/organizations/${doc.id}`);
    positions.set(doc.id, pos);
  };
  for (const r of rows) {
    if (assembly?.orgId !== r.org) {
      finish();
      assembly = new OrgAssembly(r.org);
    }
    assembly.add(r.kind, r.id, r.doc);
  }
  finish();
  // A load of every organization orders them as stored; one organization reloaded keeps its place.
  if (positions.size === world.orgs.size) orderOrgs(world, positions);
  return [...positions.keys()];
}
