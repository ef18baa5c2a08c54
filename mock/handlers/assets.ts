/**
 * Assets and asset–part links (Resources › Asset and location; Endpoints › Other families).
 * `parent_asset_id`, `sub_asset_count` and `asset_types` are read-only (hierarchy mutations have no
 * route); `sub_asset_count` counts active descendants. Lists omit `extraFields`; the detail has it.
 * Reads, writes and the link routes other than GET /assets are inferred.
 */
import type { Context, HandlerMapPart } from '../http/context.ts';
import { noContent, single } from '../http/envelope.ts';
import { nativePage } from '../paging/pages.ts';
import { notFound } from '../http/problem.ts';
import { pathRecord } from './path-record.ts';
import { newAsset } from '../store/records.ts';
import { applyExtraFields } from '../domain/extra-fields.ts';
import type { AssetRow, Schemas } from '../store/types.ts';
import type { Org } from '../store/org.ts';

/** Active descendants of every asset, computed in one pass over the organization's assets. */
export function subAssetCounts(org: Org): Map<string, number> {
  const children = new Map<string, AssetRow[]>();
  for (const a of org.assets.all()) {
    const parent = a.data.parent_asset_id;
    if (parent) (children.get(parent) ?? children.set(parent, []).get(parent)!).push(a);
  }
  const memo = new Map<string, number>();
  const count = (id: string): number => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    let n = 0;
    for (const c of children.get(id) ?? []) n += (c.archived ? 0 : 1) + count(c.id);
    memo.set(id, n);
    return n;
  };
  for (const a of org.assets.all()) count(a.id);
  return memo;
}

function assetOf(ctx: Context): AssetRow {
  return pathRecord(ctx.org.assets, ctx, 'The asset');
}

function detail(ctx: Context, row: AssetRow): string {
  return JSON.stringify({ ...row.data, sub_asset_count: subAssetCounts(ctx.org).get(row.id) ?? 0 });
}

type AssetBody = Schemas['AssetCreateRequest'] & Schemas['AssetUpdateRequest'];

function checkLocation(ctx: Context, body: AssetBody): void {
  if (body.location_id && !ctx.org.locations.get(body.location_id)) throw notFound(`Location ${body.location_id}`);
}

function partLink(ctx: Context): string {
  assetOf(ctx);
  const partId = ctx.params.partId as string;
  if (!ctx.org.parts.get(partId)) throw notFound('The part');
  return `${ctx.params.id} ${partId}`;
}

export const assetHandlers = {
  listAssets(ctx) {
    const status = ctx.params.status as string | undefined;
    const counts = subAssetCounts(ctx.org);
    return nativePage(ctx, ctx.org.assets, (row) => {
      const { extraFields: _omitted, ...listed } = row.data;
      return JSON.stringify({ ...listed, sub_asset_count: counts.get(row.id) ?? 0 });
    }, status === undefined ? undefined : (row) => row.data.status === status);
  },

  getAsset(ctx) {
    return single(ctx, detail(ctx, assetOf(ctx)));
  },

  createAsset(ctx) {
    const body = ctx.body as AssetBody;
    checkLocation(ctx, body);
    const now = new Date(ctx.now).toISOString();
    const row = newAsset(ctx.world.ids, {
      name: body.name!,
      description: body.description ?? null,
      status: body.status ?? 'online',
      criticality: body.criticality ?? 'normal',
      asset_type: body.asset_type ?? 'equipment',
      asset_types: [],
      parent_asset_id: null,
      location_id: body.location_id ?? null,
      extraFields: applyExtraFields(ctx.org, 'assets', body.extraFields),
      created_at: now,
      updated_at: now,
    });
    ctx.org.assets.insert(row);
    return single(ctx, detail(ctx, row), 201);
  },

  updateAsset(ctx) {
    const row = assetOf(ctx);
    const body = ctx.body as AssetBody;
    checkLocation(ctx, body);
    const extraFields = applyExtraFields(ctx.org, 'assets', body.extraFields, row.data.extraFields);
    const next = ctx.org.assets.replace({ ...row, data: { ...row.data, ...body, extraFields, updated_at: new Date(ctx.now).toISOString() } });
    return single(ctx, detail(ctx, next));
  },

  linkAssetPart(ctx) {
    ctx.org.assetParts.add(partLink(ctx));
    ctx.org.changed?.('assetPart', partLink(ctx));
    return noContent();
  },

  unlinkAssetPart(ctx) {
    ctx.org.assetParts.delete(partLink(ctx));
    ctx.org.changed?.('assetPart', partLink(ctx));
    return noContent();
  },
} satisfies HandlerMapPart;
