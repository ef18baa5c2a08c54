/** Recipes of the meters family (Endpoints › Meters (native)). The operations on one meter share it (`sharedRecord`, recipe.ts). */
import { sharedRecord, type CreatedRecord, type Recipe, type RecipeContext } from './recipe.ts';
import { createMeter, meterBody } from '../kits/meters.ts';
import type { RecipeMapPart, CreatesPart } from './recipe.ts';
import type { Answered, MeterEnvelope } from '../lib/api-types.ts';

/** The id of a meter of the main organization: the context's shared one, else a new one. */
const meterId = async (ctx: RecipeContext) => (await sharedRecord(ctx, 'meter', () => createMeter(ctx.api, ctx.profile))).id;

export const meterRecipes = {
  listMeters: async () => ({ method: 'GET', path: '/meters', options: { query: { limit: 1 } }, expect: 200 }),
  createMeter: async ({ api, profile }) => ({ method: 'POST', path: '/meters', options: { json: await meterBody(api, profile) }, expect: 201, ...(profile.bodies.createMeter ? {} : { inferredBody: 'supply bodies.createMeter in the target profile' }) }),
  getMeter: async (ctx) => ({ method: 'GET', path: `/meters/${await meterId(ctx)}`, expect: 200 }),
  updateMeter: async (ctx) => ({ method: 'PATCH', path: `/meters/${await meterId(ctx)}`, options: { json: { description: 'updated by the scope matrix' } }, expect: 200, inferredBody: 'no profile entry supplies a meter update body' }),
  archiveMeter: async (ctx) => ({ method: 'DELETE', path: `/meters/${await meterId(ctx)}`, expect: 204 }),
  listMeterReadings: async (ctx) => ({ method: 'GET', path: `/meters/${await meterId(ctx)}/readings`, expect: 200 }),
  createMeterReading: async (ctx) => ({ method: 'POST', path: `/meters/${await meterId(ctx)}/readings`, options: { json: { value: 1, ...ctx.profile.bodies.createMeterReading } }, expect: 201, ...(ctx.profile.bodies.createMeterReading ? {} : { inferredBody: 'supply bodies.createMeterReading in the target profile' }) }),
} satisfies RecipeMapPart;

/** The meter a valid createMeter makes (its body as kits/meters.ts `createMeter` sends it). */
export const meterCreates = {
  createMeter: { kind: 'meter', record: (body: Answered<MeterEnvelope>) => (body?.data?.id !== undefined ? body.data : undefined) },
} satisfies CreatesPart;
