/**
 * A tiny Playwright run for suites/test/worker-context.test.ts: two tests of the suite's base `test`
 * (suites/fixtures.ts) in one worker, one after the other, against the cookie server the unit test starts
 * (TARGET_URL, TARGET_PROFILE set by it). Playwright's JSON reporter (PLAYWRIGHT_JSON_OUTPUT_FILE).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: 'cookies.spec.ts',
  workers: 1,
  reporter: [['json']],
});
