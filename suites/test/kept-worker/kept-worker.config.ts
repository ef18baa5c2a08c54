/**
 * A tiny Playwright run for suites/test/kept-failure.test.ts: four tests of the suite's base `test`
 * (suites/fixtures.ts), two failing assertions and a crash, on one worker, each test its own job (as in the
 * conformance run, fullyParallel). Reporters: the restoring one first (suites/reporter/kept-failures.ts),
 * then Playwright's list, JSON and JUnit (their files come from PLAYWRIGHT_JSON_OUTPUT_FILE / _JUNIT_).
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: 'failing.spec.ts',
  fullyParallel: true,
  workers: 1,
  reporter: [['../../reporter/kept-failures.ts'], ['list'], ['json'], ['junit']],
});
