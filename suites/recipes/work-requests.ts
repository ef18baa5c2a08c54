/** Recipes of the work requests and portals family. */
import type { Recipe } from './recipe.ts';

export const workRequestRecipes: Record<string, Recipe> = {};
