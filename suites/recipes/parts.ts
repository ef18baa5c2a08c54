/**
 * Recipes of the parts family: the work-order parts section and its commands (Endpoints › Work-order
 * parts), part master records and asset–part links (Endpoints › Other families; inferred routes).
 * A parts command is an empty `replace` of a new work order's section: valid everywhere, it commits no
 * stock.
 */
import type { Recipe, RecipeContext } from './recipe.ts';
import { createWorkOrder } from '../kits/work-orders.ts';
import { readSection } from '../kits/parts.ts';
import { anyAsset, expectCreated, uid } from '../lib/provision.ts';

/** A part created through POST /parts (asserting 201). */
async function newPart({ api }: RecipeContext): Promise<string> {
  return expectCreated(await api.post('/parts', { json: { name: `CT recipe part ${uid()}` } })).body.data.id;
}

export const partsRecipes: Record<string, Recipe> = {
  getWorkOrderParts: async ({ api, profile }) => ({ method: 'GET', path: `/work-orders/${(await createWorkOrder(api, profile)).id}/parts`, expect: 200 }),
  commandWorkOrderParts: async ({ api, profile }) => {
    const id = (await createWorkOrder(api, profile)).id;
    const { aggregateVersion } = await readSection(api, id);
    return {
      method: 'POST',
      path: `/work-orders/${id}/parts`,
      options: { json: { operation: 'replace', idempotencyKey: `ct-${uid()}`, expectedAggregateVersion: aggregateVersion, items: [] } },
      expect: 200,
    };
  },
  listParts: async () => ({ method: 'GET', path: '/parts', options: { query: { limit: 1 } }, expect: 200 }),
  getPart: async (ctx) => ({ method: 'GET', path: `/parts/${await newPart(ctx)}`, expect: 200 }),
  createPart: async () => ({ method: 'POST', path: '/parts', options: { json: { name: `CT scope part ${uid()}` } }, expect: 201 }),
  updatePart: async (ctx) => ({ method: 'PATCH', path: `/parts/${await newPart(ctx)}`, options: { json: { name: `CT renamed part ${uid()}` } }, expect: 200 }),
  linkAssetPart: async (ctx) => ({ method: 'PUT', path: `/assets/${(await anyAsset(ctx.api, ctx.profile)).id}/parts/${await newPart(ctx)}`, expect: 204 }),
  unlinkAssetPart: async (ctx) => ({ method: 'DELETE', path: `/assets/${(await anyAsset(ctx.api, ctx.profile)).id}/parts/${await newPart(ctx)}`, expect: 204 }),
};
