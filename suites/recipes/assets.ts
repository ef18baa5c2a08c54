/** Recipes of the assets family (Endpoints › Other families; the single and write routes are inferred). */
import type { Recipe } from './recipe.ts';
import { anyAsset, expectCreated, uid } from '../lib/provision.ts';
import type { RecipeMapPart } from './recipe.ts';
import type { AssetEnvelope } from '../lib/api-types.ts';

export const assetRecipes = {
  listAssets: async () => ({ method: 'GET', path: '/assets', options: { query: { limit: 1 } }, expect: 200 }),
  getAsset: async ({ api, profile }) => ({ method: 'GET', path: `/assets/${(await anyAsset(api, profile)).id}`, expect: 200 }),
  createAsset: async () => ({ method: 'POST', path: '/assets', options: { json: { name: `CT asset ${uid()}` } }, expect: 201 }),
  updateAsset: async ({ api }) => {
    const created = expectCreated(await api.post<AssetEnvelope>('/assets', { json: { name: `CT asset ${uid()}` } }));
    return { method: 'PATCH', path: `/assets/${created.body.data.id}`, options: { json: { status: 'offline' } }, expect: 200 };
  },
} satisfies RecipeMapPart;
