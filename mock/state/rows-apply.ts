/**
 * Applies one stored row to a live world (docs/integrators.md, "State and replicas"): how a PostgreSQL
 * replica catches up with rows another replica wrote, without reloading their organization. The row
 * forms are rows.ts's; `doc` null is a deletion (a tombstone).
 */
import { Org } from '../store/org.ts';
import type { CustomFieldRow, ReadingRow, StockMovement } from '../store/types.ts';
import type { World } from '../store/world.ts';
import { dropOrg, keyFromDoc, workOrderFromStored, workRequestFromStored, type KeyDoc, type StoredWorkOrder, type StoredWorkRequest } from './document.ts';
import type { OrgRowDoc } from './rows.ts';

const COLLECTIONS = {
  meter: 'meters', workOrder: 'workOrders', expense: 'expenses', workRequest: 'workRequests', portal: 'portals',
  asset: 'assets', location: 'locations', part: 'parts', identifier: 'identifiers',
} as const;

/** A record of a collection kind from its stored JSON (Maps from pairs). */
function collectionRow(kind: keyof typeof COLLECTIONS, doc: string): { id: string } {
  const row = JSON.parse(doc) as { id: string };
  if (kind === 'workOrder') return workOrderFromStored(row as StoredWorkOrder);
  if (kind === 'workRequest') return workRequestFromStored(row as StoredWorkRequest);
  return row;
}

/**
 * Puts row (org, kind, id) = `doc` (null: removed) into `world`. Throws on an unknown kind. The
 * organization's change tracker sees nothing of it only if the caller clears the tracker after.
 */
export function applyRow(world: World, orgId: string, kind: string, id: string, doc: string | null): void {
  if (kind === 'org') return applyOrgRow(world, orgId, doc);
  const org = world.orgs.get(orgId);
  if (!org) return; // its organization row (and with it everything) arrives with it or was removed
  if (Object.hasOwn(COLLECTIONS, kind)) {
    const c = org[COLLECTIONS[kind as keyof typeof COLLECTIONS]] as unknown as { getAny(id: string): unknown; insert(r: unknown): void; replace(r: unknown): void; remove(id: string): void };
    if (doc === null) c.remove(id);
    else {
      const row = collectionRow(kind as keyof typeof COLLECTIONS, doc);
      if (c.getAny(id)) c.replace(row);
      else c.insert(row);
    }
    return;
  }
  switch (kind) {
    case 'reading': return applyReading(org, id, doc);
    case 'customField': {
      const [entity, n] = id.split(' ') as [keyof Org['customFields'], string];
      const rows = (org.customFields[entity] ??= []);
      const at = rows.findIndex((r) => String(r.id) === n);
      if (doc === null) {
        if (at >= 0) rows.splice(at, 1);
      } else if (at >= 0) rows[at] = JSON.parse(doc) as CustomFieldRow;
      else rows.push(JSON.parse(doc) as CustomFieldRow);
      return;
    }
    case 'assetPart': return void (doc === null ? org.assetParts.delete(id) : org.assetParts.add(id));
    case 'identifierValue': return void (doc === null ? org.identifierByValue.delete(id) : org.identifierByValue.set(id, JSON.parse(doc) as string));
    case 'stock': return void (doc === null ? org.stock.delete(id) : org.stock.set(id, JSON.parse(doc) as number));
    case 'movement': {
      if (doc !== null) org.movements[Number(id)] = JSON.parse(doc) as StockMovement;
      return;
    }
    case 'user': return void (doc === null ? org.users.delete(id) : org.users.set(id, JSON.parse(doc) as Org['users'] extends Map<string, infer U> ? U : never));
    case 'team': return void (doc === null ? org.teams.delete(id) : org.teams.set(id, JSON.parse(doc) as Org['teams'] extends Map<string, infer T> ? T : never));
    case 'key': {
      if (doc !== null) world.addKeyRecord(keyFromDoc(orgId, JSON.parse(doc) as KeyDoc));
      return;
    }
  }
  throw new Error(`unknown row kind ${kind}`);
}

function applyOrgRow(world: World, orgId: string, doc: string | null): void {
  if (doc === null) return dropOrg(world, orgId);
  const o = JSON.parse(doc) as OrgRowDoc;
  const org = world.orgs.get(orgId);
  if (!org) {
    const created = new Org(orgId, o.name, o.modules, o.settings);
    world.addOrg(created);
  } else {
    (org as { name: string }).name = o.name;
    Object.assign(org.modules, o.modules);
    Object.assign(org.settings, o.settings);
  }
  world.ids.continueAfter(o.counters.id);
  world.continueCustomFieldsAfter(o.counters.customField);
}

/** A reading (`meterId readingId`) put in its meter's list in (`reading_at`, id) order. */
function applyReading(org: Org, id: string, doc: string | null): void {
  const [meterId, readingId] = id.split(' ') as [string, string];
  const rows = org.readings.get(meterId) ?? [];
  // A new reading is most often the latest: search from the end.
  let at = rows.length - 1;
  while (at >= 0 && rows[at]!.id !== readingId) at--;
  if (at >= 0) rows.splice(at, 1);
  if (doc !== null) {
    const row = JSON.parse(doc) as ReadingRow;
    let i = rows.length;
    while (i > 0 && (rows[i - 1]!.at > row.at || (rows[i - 1]!.at === row.at && rows[i - 1]!.id > row.id))) i--;
    rows.splice(i, 0, row);
  }
  org.readings.set(meterId, rows);
}
