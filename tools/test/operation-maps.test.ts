/**
 * The handler and recipe maps are keyed by the spec's operation ids (contract/openapi.ts OperationId,
 * from spec/generated/api.ts): an operation of the spec without a mock handler or a suite recipe fails
 * `npm run typecheck`. Shown by type-checking a probe module in memory against the real maps.
 */
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import ts from 'typescript';
import { ROOT } from '../../contract/paths.ts';

/** The diagnostics of `source`, type-checked as a module at tools/test/ with tsconfig.json's options. */
function diagnosticsOf(source: string): string[] {
  const configFile = resolve(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, configFile);
  const probe = resolve(ROOT, 'tools/test/__operation-maps-probe__.ts');
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => (resolve(name) === probe ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => resolve(name) === probe || fileExists(name);
  const program = ts.createProgram({ rootNames: [probe], options: { ...options, noEmit: true }, host });
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(probe)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

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
