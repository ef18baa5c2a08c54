/** Every operation's recipe, by operationId (one file per family). */
import type { Recipe } from './recipe.ts';
import { meterRecipes } from './meters.ts';
import { workOrderRecipes } from './work-orders.ts';
import { expenseRecipes } from './expenses.ts';
import { partsRecipes } from './parts.ts';
import { workRequestRecipes } from './work-requests.ts';
import { customFieldRecipes } from './custom-fields.ts';
import { identifierRecipes } from './identifiers.ts';
import { assetRecipes } from './assets.ts';

export const RECIPES: Record<string, Recipe> = {
  ...meterRecipes,
  ...workOrderRecipes,
  ...expenseRecipes,
  ...partsRecipes,
  ...workRequestRecipes,
  ...customFieldRecipes,
  ...identifierRecipes,
  ...assetRecipes,
};

export type { PreparedRequest, Recipe, RecipeContext } from './recipe.ts';
