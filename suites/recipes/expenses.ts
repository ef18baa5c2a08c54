/** Recipes of the work-order expenses family (Endpoints › Work-order expenses). */
import type { Recipe } from './recipe.ts';
import { createWorkOrder } from '../kits/work-orders.ts';
import { expenseBody, recordExpense } from '../kits/expenses.ts';

export const expenseRecipes: Record<string, Recipe> = {
  listWorkOrderExpenses: async ({ api, profile }) => ({ method: 'GET', path: `/work-orders/${(await createWorkOrder(api, profile)).id}/other-costs`, expect: 200 }),
  createWorkOrderExpense: async ({ api, profile }) => ({
    method: 'POST', path: `/work-orders/${(await createWorkOrder(api, profile)).id}/other-costs`, options: { json: expenseBody(profile) }, expect: 201,
  }),
  retireWorkOrderExpense: async ({ api, profile }) => {
    const wo = await createWorkOrder(api, profile);
    const entry = await recordExpense(api, profile, wo.id);
    return { method: 'DELETE', path: `/work-orders/${wo.id}/other-costs/${entry.id}`, expect: 204 };
  },
};
