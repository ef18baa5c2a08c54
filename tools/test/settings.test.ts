/**
 * Run settings travel one way (contract/run-env.ts, suites/lib/settings.ts): only contract/run-env.ts
 * reads the kit's run variables, no product file writes into process.env, and the suite's tests read
 * their settings through the `settings` option (suites/fixtures.ts), never from the environment.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../../contract/paths.ts';
import { VARS } from '../../contract/run-env.ts';
import { isTestFile, sourceFiles } from '../lib/import-graph.ts';

/** A file's code without its comments (line comments and blocks; strings kept). */
function code(file: string): string {
  return readFileSync(resolve(ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

const product = sourceFiles(ROOT).filter((f) => !isTestFile(f) && !f.startsWith('bench/') && !f.startsWith('tools/'));

test('only contract/run-env.ts reads a run variable', () => {
  const names = Object.values(VARS);
  expect(names).toContain('FC_SEED');
  const readers = product.filter((f) => f !== 'contract/run-env.ts').flatMap((f) => {
    const text = code(f);
    return names.filter((name) => new RegExp(`env(\\.${name}\\b|\\[['"\`]${name}['"\`]\\])`).test(text)).map((name) => `${f}: ${name}`);
  });
  expect(readers).toEqual([]);
});

test('no product file writes into process.env', () => {
  const writers = product.filter((f) => /process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)|Object\.assign\(process\.env|delete process\.env/.test(code(f)));
  expect(writers).toEqual([]);
});

test('the rule sees a reader and a writer', () => {
  expect(/env(\.FC_SEED\b|\[['"`]FC_SEED['"`]\])/.test('const s = process.env.FC_SEED;')).toBe(true);
  expect(/process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)/.test("process.env.FC_SEED = '1';")).toBe(true);
  expect(/process\.env(\.\w+|\[[^\]]+\])\s*=(?!=)/.test('if (process.env.CI === "1") {}')).toBe(false);
});

test('the suite reads its settings through the settings option, set once by its config', () => {
  const config = code('suites/playwright.config.ts');
  expect(config).toMatch(/settings: settingsOf\(run\)/);
  const direct = product.filter((f) => f.startsWith('suites/') && !f.startsWith('suites/reporter/') && f !== 'suites/playwright.config.ts' && f !== 'suites/merge.config.ts' && /readRunEnv\(/.test(code(f)));
  // The profile's loader (the `profile` fixture's source) and the runner's global setup, no test.
  expect(direct).toEqual(['suites/lib/target.ts', 'suites/setup/global-setup.ts']);
});
