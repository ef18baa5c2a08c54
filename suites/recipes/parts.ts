/**
 * Recipes of the parts family: the work-order parts section and its commands (Endpoints › Work-order
 * parts), on a shared work order (work-orders.ts `workOrderId`), part master records and asset–part links
 * (Endpoints › Other families; inferred routes), on a shared part. A parts command is an empty `replace`
 * of the work order's section at the version read: valid everywhere, it commits no stock.
 */
import { sharedRecord, type CreatedRecord, type Recipe, type RecipeContext } from './recipe.ts';
import { workOrderId } from './work-orders.ts';
import { readSection } from '../kits/parts.ts';
import { anyAsset, expectCreated, uid } from '../lib/provision.ts';
import type { RecipeMapPart, CreatesPart } from './recipe.ts';
import type { Answered, PartEnvelope } from '../lib/api-types.ts';

/** A part created through POST /parts (asserting 201), or the context's shared one. */
function partId(ctx: RecipeContext): Promise<string> {
  return sharedRecord(ctx, 'part', async () => expectCreated(await ctx.api.post<PartEnvelope>('/parts', { json: { name: `CT recipe part ${uid()}` } })).body.data.id as string);
}

export const partsRecipes = {
  getWorkOrderParts: async (ctx) => ({ method: 'GET', path: `/work-orders/${await workOrderId(ctx)}/parts`, expect: 200 }),
  commandWorkOrderParts: async (ctx) => {
    const id = await workOrderId(ctx);
    const { aggregateVersion } = await readSection(ctx.api, id);
    return {
      method: 'POST',
      path: `/work-orders/${id}/parts`,
      options: { json: { operation: 'replace', idempotencyKey: `ct-${uid()}`, expectedAggregateVersion: aggregateVersion, items: [] } },
      expect: 200,
    };
  },
  listParts: async () => ({ method: 'GET', path: '/parts', options: { query: { limit: 1 } }, expect: 200 }),
  getPart: async (ctx) => ({ method: 'GET', path: `/parts/${await partId(ctx)}`, expect: 200 }),
  createPart: async () => ({ method: 'POST', path: '/parts', options: { json: { name: `CT scope part ${uid()}` } }, expect: 201 }),
  updatePart: async (ctx) => ({ method: 'PATCH', path: `/parts/${await partId(ctx)}`, options: { json: { name: `CT renamed part ${uid()}` } }, expect: 200 }),
  linkAssetPart: async (ctx) => ({ method: 'PUT', path: `/assets/${(await anyAsset(ctx.api, ctx.profile)).id}/parts/${await partId(ctx)}`, expect: 204 }),
  unlinkAssetPart: async (ctx) => ({ method: 'DELETE', path: `/assets/${(await anyAsset(ctx.api, ctx.profile)).id}/parts/${await partId(ctx)}`, expect: 204 }),
} satisfies RecipeMapPart;

/** The part a valid createPart makes (a name only, as `partId` sends it); the shared part is its id. */
export const partsCreates = {
  createPart: { kind: 'part', record: (body: Answered<PartEnvelope>) => (typeof body?.data?.id === 'string' ? body.data.id : undefined) },
} satisfies CreatesPart;
