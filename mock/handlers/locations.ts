/**
 * Locations and sub-locations (Resources › Asset and location; Resources › Custom-field definition;
 * Errors: 409 `invalid_location_hierarchy`). Every route is inferred.
 *
 * - The hierarchy has one parent level with one sub-location level: a parent must be a top-level
 *   location, a location with sub-locations cannot get a parent, and no location is its own parent
 *   (409 `invalid_location_hierarchy`); a `parentId` the organization does not have is 404; null makes a
 *   location top-level.
 * - The detail carries `childrenIds` (its sub-locations) and `extraFields`; list items carry neither
 *   `childrenIds` nor, unless `expand=extra_fields` is given, `extraFields`.
 */
import type { Context, HandlerMapPart } from '../http/context.ts';
import { cachedJson } from '../http/json-cache.ts';
import { single } from '../http/envelope.ts';
import { nativePage } from '../paging/pages.ts';
import { conflict, notFound } from '../http/problem.ts';
import { pathRecord } from './path-record.ts';
import { applyExtraFields } from '../domain/extra-fields.ts';
import type { Org } from '../store/org.ts';
import type { LocationRow, Schemas } from '../store/types.ts';

type LocationBody = Schemas['LocationCreateRequest'] & Schemas['LocationUpdateRequest'];

function locationOf(ctx: Context): LocationRow {
  return pathRecord(ctx.org.locations, ctx, 'The location');
}

/** The ids of a location's sub-locations, in id order. */
function childrenOf(org: Org, id: string): string[] {
  const out: string[] = [];
  for (const row of org.locations.values()) if (row.data.parentId === id) out.push(row.id);
  return out;
}

function hierarchyConflict(detail: string): never {
  throw conflict(`${detail} Locations have one parent level with one sub-location level.`, 'invalid_location_hierarchy');
}

/**
 * Checks that the location `movingId` (undefined on create) may sit under `parentId`: the parent exists
 * (else 404), is not the location itself, is top-level, and the location has no sub-locations (else 409).
 */
function checkPlacement(org: Org, parentId: string | null | undefined, movingId?: string): void {
  if (parentId === null || parentId === undefined) return;
  if (parentId === movingId) hierarchyConflict('A location cannot be its own parent.');
  const parent = org.locations.get(parentId);
  if (!parent) throw notFound(`Location ${parentId}`);
  if (parent.data.parentId) hierarchyConflict(`Location ${parentId} is a sub-location and cannot have sub-locations.`);
  if (movingId !== undefined && childrenOf(org, movingId).length > 0) hierarchyConflict(`Location ${movingId} has sub-locations and cannot get a parent.`);
}

const detail = (org: Org, row: LocationRow): string => JSON.stringify({ ...row.data, childrenIds: childrenOf(org, row.id) });

const listed = (row: LocationRow): string =>
  cachedJson(row.data, 'location-list', () => {
    const { extraFields: _omitted, ...rest } = row.data;
    return rest;
  });

export const locationHandlers = {
  listLocations(ctx) {
    const expand = (ctx.params.expand as string[] | undefined) ?? [];
    return nativePage(ctx, ctx.org.locations, expand.includes('extra_fields') ? (row) => cachedJson(row.data) : listed);
  },

  getLocation(ctx) {
    return single(ctx, detail(ctx.org, locationOf(ctx)));
  },

  createLocation(ctx) {
    const body = ctx.body as LocationBody;
    checkPlacement(ctx.org, body.parentId);
    const now = new Date(ctx.now).toISOString();
    const id = ctx.world.ids.next('loc');
    const row: LocationRow = {
      id,
      data: {
        id,
        name: body.name!,
        parentId: body.parentId ?? null,
        address: body.address ?? null,
        extraFields: applyExtraFields(ctx.org, 'locations', body.extraFields),
        created_at: now,
        updated_at: now,
      },
    };
    ctx.org.locations.insert(row);
    return single(ctx, detail(ctx.org, row), 201);
  },

  updateLocation(ctx) {
    const row = locationOf(ctx);
    const body = ctx.body as LocationBody;
    if (body.parentId !== undefined && body.parentId !== row.data.parentId) checkPlacement(ctx.org, body.parentId, row.id);
    const extraFields = applyExtraFields(ctx.org, 'locations', body.extraFields, row.data.extraFields);
    const next = ctx.org.locations.replace({ ...row, data: { ...row.data, ...body, extraFields, updated_at: new Date(ctx.now).toISOString() } });
    return single(ctx, detail(ctx.org, next));
  },
} satisfies HandlerMapPart;
