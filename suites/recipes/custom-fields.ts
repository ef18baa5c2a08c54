/** Recipes of the custom fields and locations family. */
import type { Recipe } from './recipe.ts';

export const customFieldRecipes: Record<string, Recipe> = {};
