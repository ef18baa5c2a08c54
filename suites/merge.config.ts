/**
 * The reporters of `mms-conformance report merge` (`playwright merge-reports --config`): the shards'
 * blob reports are replayed through the conformance reporter as if they were one run, plus Playwright's
 * HTML report. Settings come from the run's environment (contract/run-env.ts).
 */
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { readRunEnv } from '../contract/run-env.ts';

const reports = resolve(process.cwd(), readRunEnv().reportsDir);

export default defineConfig({
  testDir: '.',
  reporter: [
    ['./reporter/conformance-reporter.ts', { outputDir: reports }],
    ['html', { outputFolder: `${reports}/playwright`, open: 'never' }],
    ['./reporter/redact-artifacts.ts', { dirs: [`${reports}/playwright`] }],
  ],
});
