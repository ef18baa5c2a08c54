/** Recipes of the identifiers family (Resources › Identifier; every identifier route is inferred). */
import type { Recipe } from './recipe.ts';
import { assetTarget, attachIdentifier, freshValue, locationTarget } from '../kits/identifiers.ts';

export const identifierRecipes: Record<string, Recipe> = {
  listIdentifiers: async () => ({ method: 'GET', path: '/identifiers', options: { query: { limit: 1 } }, expect: 200 }),
  resolveIdentifier: async ({ api, profile }) => ({ method: 'GET', path: '/identifiers/resolve', options: { query: { payload: (await attachIdentifier(api, await assetTarget(api, profile))).value } }, expect: 200 }),
  attachIdentifier: async ({ api, profile }) => ({ method: 'POST', path: '/identifiers', options: { json: { value: freshValue(), ...(await assetTarget(api, profile)) } }, expect: 201 }),
  generateIdentifier: async ({ api, profile }) => ({ method: 'POST', path: '/identifiers/generate', options: { json: await locationTarget(api, profile) }, expect: 201 }),
  importIdentifiers: async ({ api, profile }) => ({
    method: 'POST',
    path: '/identifiers/import',
    options: { json: { identifiers: [{ value: freshValue(), ...(await assetTarget(api, profile)) }, { value: freshValue(), ...(await locationTarget(api, profile)) }] } },
    expect: 201,
  }),
  retireIdentifier: async ({ api, profile }) => ({ method: 'DELETE', path: `/identifiers/${(await attachIdentifier(api, await assetTarget(api, profile))).id}`, expect: 204 }),
};
