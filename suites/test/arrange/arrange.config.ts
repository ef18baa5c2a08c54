/** A tiny Playwright run for suites/test/arrange.test.ts: the scenarios of arrange/arranging.spec.ts on one worker. */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: 'arranging.spec.ts',
  workers: 1,
  reporter: [['json']],
});
