/**
 * Part master records (Resources › Part; Endpoints › Other families: single-resource and write
 * operations for parts exist, their routes and bodies are inferred). The Parts Inventory module is
 * checked by the pipeline (x-module).
 *
 * - The list (ID cursor) omits `extraFields` (Custom-field definition: part lists omit the values) and
 *   `asset_ids`; the detail has both, `asset_ids` being the visible assets linked to the part
 *   (asset–part links live in handlers/assets.ts).
 * - A part describes the record and its minimum-stock setting only: stock and unit costs never show here.
 * - Archived parts are unavailable (404) and unlisted.
 */
import type { Context, HandlerMapPart } from '../http/context.ts';
import { cachedJson } from '../http/json-cache.ts';
import { single } from '../http/envelope.ts';
import { nativePage } from '../paging/pages.ts';
import { CACHEABLE } from '../paging/page-cache.ts';
import { pathRecord } from './path-record.ts';
import { applyExtraFields } from '../domain/extra-fields.ts';
import type { Org } from '../store/org.ts';
import type { PartRow, Schemas } from '../store/types.ts';

type PartBody = Schemas['PartCreateRequest'] & Schemas['PartUpdateRequest'];

function partOf(ctx: Context): PartRow {
  return pathRecord(ctx.org.parts, ctx, 'The part');
}

/** Visible assets linked to a part (`org.assetParts` holds `${assetId} ${partId}`). */
function linkedAssetIds(org: Org, partId: string): string[] {
  const ids: string[] = [];
  for (const link of org.assetParts) {
    const [assetId, linkedPart] = link.split(' ') as [string, string];
    if (linkedPart === partId && org.assets.get(assetId)) ids.push(assetId);
  }
  return ids.sort();
}

const listJson = (row: PartRow): string =>
  cachedJson(row.data, 'part-list', () => {
    const { extraFields: _omitted, ...listed } = row.data;
    return listed;
  });

const detailJson = (org: Org, row: PartRow): string => JSON.stringify({ ...row.data, asset_ids: linkedAssetIds(org, row.id) });

export const partHandlers = {
  listParts(ctx) {
    return nativePage(ctx, ctx.org.parts, listJson, undefined, CACHEABLE);
  },

  getPart(ctx) {
    return single(ctx, detailJson(ctx.org, partOf(ctx)));
  },

  createPart(ctx) {
    const body = ctx.body as PartBody;
    const now = new Date(ctx.now).toISOString();
    const id = ctx.world.ids.next('prt');
    const row: PartRow = {
      id,
      archived: false,
      unitCostMinor: null,
      data: {
        id,
        name: body.name!,
        description: body.description ?? null,
        part_number: body.part_number ?? null,
        manufacturer: body.manufacturer ?? null,
        minimum_stock: body.minimum_stock ?? null,
        part_type_id: body.part_type_id ?? null,
        image_url: body.image_url ?? null,
        extraFields: applyExtraFields(ctx.org, 'parts', body.extraFields),
        created_at: now,
        updated_at: now,
      },
    };
    ctx.org.parts.insert(row);
    return single(ctx, detailJson(ctx.org, row), 201);
  },

  updatePart(ctx) {
    const row = partOf(ctx);
    const body = ctx.body as PartBody;
    const extraFields = applyExtraFields(ctx.org, 'parts', body.extraFields, row.data.extraFields);
    const next = ctx.org.parts.replace({ ...row, data: { ...row.data, ...body, extraFields, updated_at: new Date(ctx.now).toISOString() } });
    return single(ctx, detailJson(ctx.org, next));
  },
} satisfies HandlerMapPart;
