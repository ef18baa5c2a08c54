/**
 * The handler and recipe maps are keyed by the spec's operation ids (contract/openapi.ts OperationId,
 * from spec/generated/api.ts): an operation of the spec without a mock handler or a suite recipe fails
 * `npm run typecheck`. Shown by type-checking a probe module in memory against the real maps.
 */
import { expect, test } from '@playwright/test';
import { diagnosticsOf as probeDiagnostics } from './type-probe.ts';

const diagnosticsOf = (source: string) => probeDiagnostics(source, '__operation-maps-probe__');

const IMPORTS = `
import type { HandlerMap } from '../../mock/http/context.ts';
import { handlers } from '../../mock/handlers/index.ts';
import { RECIPES } from '../../suites/recipes/index.ts';
import type { Recipe } from '../../suites/recipes/recipe.ts';
import type { OperationId } from '../../contract/openapi.ts';
`;

test('the maps as they are type-check: every operation has its handler and its recipe', () => {
  expect(diagnosticsOf(`${IMPORTS}
export const h: HandlerMap = handlers;
export const r: Record<OperationId, Recipe> = RECIPES;
export const known: OperationId = 'getMeter';`)).toEqual([]);
});

test('a handler or a recipe missing for one operation, or a key no operation has, is a type error', () => {
  const errors = diagnosticsOf(`${IMPORTS}
const { getMeter: _h, ...handlersButOne } = handlers;
export const h: HandlerMap = handlersButOne;
const { createMeter: _r, ...recipesButOne } = RECIPES;
export const r: Record<OperationId, Recipe> = recipesButOne;
export const unknown: OperationId = 'getMeterz';`);
  expect(errors.some((e) => /getMeter/.test(e) && /missing/.test(e)), errors.join('\n')).toBe(true);
  expect(errors.some((e) => /createMeter/.test(e) && /missing/.test(e)), errors.join('\n')).toBe(true);
  expect(errors.some((e) => /getMeterz/.test(e)), errors.join('\n')).toBe(true);
});
