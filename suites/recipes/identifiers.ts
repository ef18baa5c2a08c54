/** Recipes of the identifiers family. */
import type { Recipe } from './recipe.ts';

export const identifierRecipes: Record<string, Recipe> = {};
