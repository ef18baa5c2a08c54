/**
 * The conformance run (design.md §5). Target: TARGET_URL + TARGET_PROFILE, or the embedded mock.
 * Projects: `setup` (the target answers) → `conformance` and `properties` (fully parallel, every test
 * makes its own data) → `serial` (rate limits and the clock; runs last, one worker, as setup's teardown).
 */
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';

/** Where reports go: REPORTS_DIR (absolute, or relative to the working directory), default reports/. */
const reports = resolve(process.cwd(), process.env.REPORTS_DIR ?? 'reports');
/** Set by the CLI: print progress lines instead of one line per test. */
const progress = process.env.MMS_PROGRESS === '1';
/** Set by the CLI for `--shard i/n`: also write a Playwright blob report, for `report merge`. */
const blob = process.env.MMS_BLOB;

export default defineConfig({
  testDir: '.',
  globalSetup: './setup/global-setup.ts',
  globalTeardown: './setup/global-teardown.ts',
  workers: Number(process.env.WORKERS ?? 4),
  fullyParallel: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  retries: 0,
  outputDir: `${reports}/test-results`,
  reporter: [
    ...(progress ? [] : [[process.env.CI ? 'dot' : 'list'] as [string]]),
    ['./reporter/conformance-reporter.ts', { outputDir: reports, progress }],
    ['html', { outputFolder: `${reports}/playwright`, open: 'never' }],
    ...(blob ? [['blob', { outputDir: `${reports}/blob`, fileName: `${blob}.zip` }] as [string, object]] : []),
  ],
  projects: [
    { name: 'setup', testMatch: /setup\/.*\.setup\.ts/, teardown: 'serial' },
    { name: 'conformance', testMatch: /conformance\/.*\.spec\.ts/, dependencies: ['setup'] },
    { name: 'properties', testMatch: /properties\/.*\.spec\.ts/, dependencies: ['setup'] },
    { name: 'serial', testMatch: /serial\/.*\.spec\.ts/, workers: 1, fullyParallel: false },
  ],
});
