/**
 * Recipes of the custom fields and locations families (Endpoints › Custom fields (compatibility style);
 * Resources › Asset and location). Definitions are made on `assets` through the inferred POST body. The
 * operations on one definition, or one location, share it (`sharedRecord`, recipe.ts).
 */
import { sharedRecord, type CreatedRecord, type Recipe, type RecipeContext } from './recipe.ts';
import { createDefinitions, fieldLabel } from '../kits/custom-fields.ts';
import { createLocation, locationName } from '../kits/locations.ts';
import type { RecipeMapPart, CreatesPart } from './recipe.ts';
import type { Answered, CustomFieldDefinition, LocationEnvelope } from '../lib/api-types.ts';

/** The id of an `assets` custom-field definition: the context's shared one, else a new one. */
const definitionId = async (ctx: RecipeContext) => (await sharedRecord(ctx, 'assetsFieldDefinition', async () => (await createDefinitions(ctx.api, 'assets'))[0]!)).id;

/** The id of a location of the main organization: the context's shared one, else a new one. */
const locationId = async (ctx: RecipeContext) => (await sharedRecord(ctx, 'location', () => createLocation(ctx.api))).id;

export const customFieldRecipes = {
  listCustomFields: async () => ({ method: 'GET', path: '/customfields/assets', expect: 200 }),
  createCustomFields: async () => ({ method: 'POST', path: '/customfields/assets', options: { json: { fields: [{ label: fieldLabel() }] } }, expect: 200, inferredBody: 'no profile entry supplies a custom-field create body' }),
  updateCustomField: async (ctx) => ({ method: 'PATCH', path: `/customfields/assets/${await definitionId(ctx)}`, options: { json: { field: { unlisted: true } } }, expect: 204 }),
  archiveCustomField: async (ctx) => ({ method: 'DELETE', path: `/customfields/assets/${await definitionId(ctx)}`, expect: 204 }),
  listLocations: async () => ({ method: 'GET', path: '/locations', options: { query: { limit: 1 } }, expect: 200 }),
  createLocation: async () => ({ method: 'POST', path: '/locations', options: { json: { name: locationName() } }, expect: 201 }),
  getLocation: async (ctx) => ({ method: 'GET', path: `/locations/${await locationId(ctx)}`, expect: 200 }),
  updateLocation: async (ctx) => ({ method: 'PATCH', path: `/locations/${await locationId(ctx)}`, options: { json: { name: locationName() } }, expect: 200 }),
} satisfies RecipeMapPart;

/** The definition and the location valid creates make (their bodies as kits/custom-fields.ts and kits/locations.ts send them). */
export const customFieldCreates = {
  createCustomFields: { kind: 'assetsFieldDefinition', record: (body: Answered<CustomFieldDefinition[]>) => (Array.isArray(body) && body[0]?.id !== undefined ? body[0] : undefined) },
  createLocation: { kind: 'location', record: (body: Answered<LocationEnvelope>) => (body?.data?.id !== undefined ? body.data : undefined) },
} satisfies CreatesPart;
