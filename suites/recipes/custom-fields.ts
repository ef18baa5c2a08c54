/**
 * Recipes of the custom fields and locations families (Endpoints › Custom fields (compatibility style);
 * Resources › Asset and location). Definitions are made on `assets` through the inferred POST body.
 */
import type { Recipe } from './recipe.ts';
import { createDefinitions, fieldLabel } from '../kits/custom-fields.ts';
import { createLocation, locationName } from '../kits/locations.ts';

export const customFieldRecipes: Record<string, Recipe> = {
  listCustomFields: async () => ({ method: 'GET', path: '/customfields/assets', expect: 200 }),
  createCustomFields: async () => ({ method: 'POST', path: '/customfields/assets', options: { json: { fields: [{ label: fieldLabel() }] } }, expect: 200, inferredBody: 'no profile entry supplies a custom-field create body' }),
  updateCustomField: async ({ api }) => {
    const [definition] = await createDefinitions(api, 'assets');
    return { method: 'PATCH', path: `/customfields/assets/${definition!.id}`, options: { json: { field: { unlisted: true } } }, expect: 204 };
  },
  archiveCustomField: async ({ api }) => {
    const [definition] = await createDefinitions(api, 'assets');
    return { method: 'DELETE', path: `/customfields/assets/${definition!.id}`, expect: 204 };
  },
  listLocations: async () => ({ method: 'GET', path: '/locations', options: { query: { limit: 1 } }, expect: 200 }),
  createLocation: async () => ({ method: 'POST', path: '/locations', options: { json: { name: locationName() } }, expect: 201 }),
  getLocation: async ({ api }) => ({ method: 'GET', path: `/locations/${(await createLocation(api)).id}`, expect: 200 }),
  updateLocation: async ({ api }) => ({ method: 'PATCH', path: `/locations/${(await createLocation(api)).id}`, options: { json: { name: locationName() } }, expect: 200 }),
};
