/**
 * The reporters of `mms-conformance report merge` (`playwright merge-reports --config`): the shards'
 * blob reports are replayed through the conformance reporter as if they were one run, plus Playwright's
 * HTML report.
 */
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';

const reports = resolve(process.cwd(), process.env.REPORTS_DIR ?? 'reports');

export default defineConfig({
  testDir: '.',
  reporter: [
    ['./reporter/conformance-reporter.ts', { outputDir: reports }],
    ['html', { outputFolder: `${reports}/playwright`, open: 'never' }],
  ],
});
