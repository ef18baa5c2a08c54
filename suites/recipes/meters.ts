/** Recipes of the meters family (Endpoints › Meters (native)). */
import type { Recipe } from './recipe.ts';
import { createMeter, meterBody } from '../kits/meters.ts';

export const meterRecipes: Record<string, Recipe> = {
  listMeters: async () => ({ method: 'GET', path: '/meters', options: { query: { limit: 1 } }, expect: 200 }),
  createMeter: async ({ api, profile }) => ({ method: 'POST', path: '/meters', options: { json: await meterBody(api, profile) }, expect: 201, ...(profile.bodies.createMeter ? {} : { inferredBody: 'supply bodies.createMeter in the target profile' }) }),
  getMeter: async ({ api, profile }) => ({ method: 'GET', path: `/meters/${(await createMeter(api, profile)).id}`, expect: 200 }),
  updateMeter: async ({ api, profile }) => ({ method: 'PATCH', path: `/meters/${(await createMeter(api, profile)).id}`, options: { json: { description: 'updated by the scope matrix' } }, expect: 200, inferredBody: 'no profile entry supplies a meter update body' }),
  archiveMeter: async ({ api, profile }) => ({ method: 'DELETE', path: `/meters/${(await createMeter(api, profile)).id}`, expect: 204 }),
  listMeterReadings: async ({ api, profile }) => ({ method: 'GET', path: `/meters/${(await createMeter(api, profile)).id}/readings`, expect: 200 }),
  createMeterReading: async ({ api, profile }) => ({ method: 'POST', path: `/meters/${(await createMeter(api, profile)).id}/readings`, options: { json: { value: 1, ...profile.bodies.createMeterReading } }, expect: 201, ...(profile.bodies.createMeterReading ? {} : { inferredBody: 'supply bodies.createMeterReading in the target profile' }) }),
};
