/** Recipes of the work-orders family (Endpoints › Work orders (native), compatibility create). */
import type { Recipe } from './recipe.ts';
import { createWorkOrder } from '../kits/work-orders.ts';
import { uid } from '../lib/provision.ts';

export const workOrderRecipes: Record<string, Recipe> = {
  listWorkOrders: async () => ({ method: 'GET', path: '/work-orders', options: { query: { limit: 1 } }, expect: 200 }),
  createWorkOrder: async ({ profile }) => ({ method: 'POST', path: '/work-orders', options: { json: { title: `CT scope ${uid()}`, ...profile.bodies.createWorkOrder } }, expect: 201 }),
  getWorkOrder: async ({ api, profile }) => ({ method: 'GET', path: `/work-orders/${(await createWorkOrder(api, profile)).id}`, expect: 200 }),
  updateWorkOrder: async ({ api, profile }) => ({ method: 'PATCH', path: `/work-orders/${(await createWorkOrder(api, profile)).id}`, options: { json: { title: `CT renamed ${uid()}` } }, expect: 200 }),
  deleteWorkOrder: async ({ api, profile }) => ({ method: 'DELETE', path: `/work-orders/${(await createWorkOrder(api, profile)).id}`, expect: 204 }),
  createCompatWorkOrder: async ({ profile }) => ({ method: 'POST', path: '/workorders', options: { json: { title: `CT compat ${uid()}`, priority: 'NONE', ...profile.bodies.createCompatWorkOrder } }, expect: 200 }),
  getCompatWorkOrder: async ({ api, profile }) => ({ method: 'GET', path: `/workorders/${(await createWorkOrder(api, profile)).id}`, expect: 200 }),
};
