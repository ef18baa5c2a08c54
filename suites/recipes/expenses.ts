/**
 * Recipes of the work-order expenses family (Endpoints › Work-order expenses), on a shared work order
 * (work-orders.ts `workOrderId`) — except the retire's, whose set-up records an expense: a recipe that
 * changes a record makes its own.
 */
import type { Recipe } from './recipe.ts';
import { workOrderId } from './work-orders.ts';
import { createWorkOrder } from '../kits/work-orders.ts';
import { expenseBody, recordExpense } from '../kits/expenses.ts';
import type { RecipeMapPart } from './recipe.ts';

export const expenseRecipes = {
  listWorkOrderExpenses: async (ctx) => ({ method: 'GET', path: `/work-orders/${await workOrderId(ctx)}/other-costs`, expect: 200 }),
  createWorkOrderExpense: async (ctx) => ({
    method: 'POST', path: `/work-orders/${await workOrderId(ctx)}/other-costs`, options: { json: expenseBody(ctx.profile) }, expect: 201,
  }),
  retireWorkOrderExpense: async (ctx) => {
    const wo = (await createWorkOrder(ctx.api, ctx.profile)).id;
    const entry = await recordExpense(ctx.api, ctx.profile, wo);
    return { method: 'DELETE', path: `/work-orders/${wo}/other-costs/${entry.id}`, expect: 204 };
  },
} satisfies RecipeMapPart;
