/** Recipes of the work-order expenses family. */
import type { Recipe } from './recipe.ts';

export const expenseRecipes: Record<string, Recipe> = {};
