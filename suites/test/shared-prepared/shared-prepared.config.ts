/**
 * A tiny Playwright run for suites/test/prepared-cache.test.ts: two test files in one worker, the first
 * preparing a request in the worker's cache (suites/lib/prepared-cache.ts `workerPrepared`), the second
 * reading it. Playwright's JSON reporter (PLAYWRIGHT_JSON_OUTPUT_FILE).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: /(first|second)-file\.spec\.ts$/,
  workers: 1,
  fullyParallel: false,
  reporter: [['json']],
});
