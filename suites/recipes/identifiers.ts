/** Recipes of the identifiers family (Resources › Identifier; every identifier route is inferred). The resolve and the retire share one attached identifier (`sharedRecord`, recipe.ts). */
import { sharedRecord, type CreatedRecord, type Recipe, type RecipeContext } from './recipe.ts';
import { assetTarget, attachIdentifier, freshValue, locationTarget } from '../kits/identifiers.ts';
import type { RecipeMapPart, CreatesPart } from './recipe.ts';
import type { Answered, IdentifierEnvelope } from '../lib/api-types.ts';

/** An identifier attached to an asset: the context's shared one, else a new one. */
const attached = async (ctx: RecipeContext) => sharedRecord(ctx, 'identifier', async () => attachIdentifier(ctx.api, await assetTarget(ctx.api, ctx.profile)));

export const identifierRecipes = {
  listIdentifiers: async () => ({ method: 'GET', path: '/identifiers', options: { query: { limit: 1 } }, expect: 200 }),
  resolveIdentifier: async (ctx) => ({ method: 'GET', path: '/identifiers/resolve', options: { query: { payload: (await attached(ctx)).value } }, expect: 200 }),
  attachIdentifier: async ({ api, profile }) => ({ method: 'POST', path: '/identifiers', options: { json: { value: freshValue(), ...(await assetTarget(api, profile)) } }, expect: 201 }),
  generateIdentifier: async ({ api, profile }) => ({ method: 'POST', path: '/identifiers/generate', options: { json: await locationTarget(api, profile) }, expect: 201 }),
  importIdentifiers: async ({ api, profile }) => ({
    method: 'POST',
    path: '/identifiers/import',
    options: { json: { identifiers: [{ value: freshValue(), ...(await assetTarget(api, profile)) }, { value: freshValue(), ...(await locationTarget(api, profile)) }] } },
    expect: 201,
  }),
  retireIdentifier: async (ctx) => ({ method: 'DELETE', path: `/identifiers/${(await attached(ctx)).id}`, expect: 204 }),
} satisfies RecipeMapPart;

/** The identifier a valid attachIdentifier makes (attached to an asset, as kits/identifiers.ts `attachIdentifier` does). */
export const identifierCreates = {
  attachIdentifier: { kind: 'identifier', record: (body: Answered<IdentifierEnvelope>) => (body?.data?.id !== undefined && body.data.target_type === 'asset' ? body.data : undefined) },
} satisfies CreatesPart;
