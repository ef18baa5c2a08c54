/** Every operation's recipe, by operationId (one file per family). */
import type { Recipe } from './recipe.ts';
import { meterRecipes } from './meters.ts';

export const RECIPES: Record<string, Recipe> = {
  ...meterRecipes,
};

export type { PreparedRequest, Recipe, RecipeContext } from './recipe.ts';
