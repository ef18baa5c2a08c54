/** Recipes of the parts, the parts section and asset-part links family. */
import type { Recipe } from './recipe.ts';

export const partsRecipes: Record<string, Recipe> = {};
