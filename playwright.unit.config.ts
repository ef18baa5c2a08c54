/**
 * The kit's own tests (`npm run test:unit`): spec, catalog, mock internals, suite library, reporter
 * and tools. The conformance suite itself has its own config (suites/playwright.config.ts).
 */
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { readRunEnv } from './contract/run-env.ts';

const run = readRunEnv();

export default defineConfig({
  testDir: '.',
  testMatch: ['spec/test/**/*.test.ts', 'mock/test/**/*.test.ts', 'suites/test/**/*.test.ts', 'tools/test/**/*.test.ts', 'proxy/test/**/*.test.ts'],
  fullyParallel: true,
  workers: run.workers ?? 2,
  timeout: 60_000,
  reporter: process.env.CI ? 'dot' : 'list',
  outputDir: `${resolve(process.cwd(), run.reportsDir)}/unit-results`,
});
