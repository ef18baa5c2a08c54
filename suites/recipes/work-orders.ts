/**
 * Recipes of the work-orders family (Endpoints › Work orders (native), compatibility create). The
 * operations on one work order — here, and its expenses and parts section — share it (`workOrderId`).
 */
import { sharedRecord, type Recipe, type RecipeContext } from './recipe.ts';
import { createWorkOrder } from '../kits/work-orders.ts';
import { uid } from '../lib/provision.ts';
import type { RecipeMapPart } from './recipe.ts';

/** The id of a work order of the main organization: the context's shared one, else a new one. */
export const workOrderId = async (ctx: RecipeContext): Promise<string> => (await sharedRecord(ctx, 'workOrder', () => createWorkOrder(ctx.api, ctx.profile))).id;

export const workOrderRecipes = {
  listWorkOrders: async () => ({ method: 'GET', path: '/work-orders', options: { query: { limit: 1 } }, expect: 200 }),
  createWorkOrder: async ({ profile }) => ({ method: 'POST', path: '/work-orders', options: { json: { title: `CT scope ${uid()}`, ...profile.bodies.createWorkOrder } }, expect: 201 }),
  getWorkOrder: async (ctx) => ({ method: 'GET', path: `/work-orders/${await workOrderId(ctx)}`, expect: 200 }),
  updateWorkOrder: async (ctx) => ({ method: 'PATCH', path: `/work-orders/${await workOrderId(ctx)}`, options: { json: { title: `CT renamed ${uid()}` } }, expect: 200 }),
  deleteWorkOrder: async (ctx) => ({ method: 'DELETE', path: `/work-orders/${await workOrderId(ctx)}`, expect: 204 }),
  createCompatWorkOrder: async ({ profile }) => ({ method: 'POST', path: '/workorders', options: { json: { title: `CT compat ${uid()}`, priority: 'NONE', ...profile.bodies.createCompatWorkOrder } }, expect: 200 }),
  getCompatWorkOrder: async (ctx) => ({ method: 'GET', path: `/workorders/${await workOrderId(ctx)}`, expect: 200 }),
} satisfies RecipeMapPart;
