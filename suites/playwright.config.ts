/**
 * The conformance run (docs/design.md §5); its settings come from the run's environment (contract/run-env.ts).
 * Target: the run's URL + profile (the embedded mock's, when the CLI started it), checked to answer by the global setup. Projects: `setup` (no tests: the anchor of `serial`) →
 * `conformance` (conformance/, properties/ and generative/: fully parallel, every test makes its own data; against a remote
 * target its longest test in `conformance-long`, queued first) → `serial` (rate limits
 * and the clock; runs last, one worker, as setup's teardown). The run's selection is each project's
 * `grep` except setup's: a command-line --grep would not reach `serial`, which runs as a teardown.
 * `use` carries the profile's request options (contract/profile.ts requestUse).
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { runConcurrency } from '../contract/concurrency.ts';
import { requestUse } from '../contract/profile.ts';
import { readRunEnv } from '../contract/run-env.ts';
import { targetProfile } from './lib/target.ts';
import { settingsOf, type RunSettings } from './lib/settings.ts';

const run = readRunEnv();
// The profile's headers, TLS and proxy reach every request through `use` (its CA bundle, through
// NODE_EXTRA_CA_CERTS set by the CLI). The embedded mock's profile, written by the CLI, asks for none.
const use = run.targetProfile ? requestUse(targetProfile()) : {};
const reports = resolve(process.cwd(), run.reportsDir);
const grep = run.grep ? new RegExp(run.grep) : undefined;
// Tests at once, each in a worker (contract/concurrency.ts): `run --concurrency` (WORKERS), else the
// profile's `concurrency`, else against the embedded mock one worker per core (2 to 4: its answers are
// the workers' own CPU; docs/history.md, "The suite's fixed costs"), against a remote target its live
// keys' rate budget (its answers are mostly waiting).
const profile = run.targetProfile ? targetProfile() : undefined;
/** The parallel tests queued first against a remote target (project `conformance-long`). */
const LONG_FIRST = /generative\/stateful\.spec\.ts$/;
const longFirst = !run.targetEmbedded;
const concurrency = runConcurrency({ option: run.workers, profile: profile?.concurrency, embedded: run.targetEmbedded, liveKeys: profile?.keys.live, cores: availableParallelism() });
// Playwright's context options at the values its own option fixtures compute when nothing is set
// (their documented defaults). Given as values, they are no fixtures to run: Playwright sets up every
// option fixture for every test (its auto fixtures depend on them all) as a step whose stack trace it
// captures and source-maps — about a tenth of a worker's CPU against the embedded mock (docs/history.md,
// "The suite's fixed costs"). Options without a default (proxy, userAgent …) stay unset.
const contextDefaults = {
  acceptDownloads: true, bypassCSP: false, colorScheme: 'light', contrast: 'no-preference', forcedColors: 'none',
  hasTouch: false, ignoreHTTPSErrors: false, isMobile: false, javaScriptEnabled: true, locale: 'en-US', offline: false,
  reducedMotion: 'no-preference', serviceWorkers: 'allow', viewport: { width: 1280, height: 720 },
} as const;

export default defineConfig<{}, { settings: RunSettings }>({
  testDir: '.',
  globalSetup: './setup/global-setup.ts',
  workers: concurrency.tests,
  fullyParallel: true,
  timeout: run.testTimeout ?? 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  retries: 0,
  // No trace, screenshot or video: a trace records every request's headers, keys included.
  // `settings`: the run's settings as the tests read them (suites/lib/settings.ts).
  use: { ...contextDefaults, ...use, settings: settingsOf(run), trace: 'off', screenshot: 'off', video: 'off' },
  outputDir: `${reports}/test-results`,
  reporter: [
    // First: turns the failures a worker kept going after back into failures before anything else reads them.
    ['./reporter/kept-failures.ts'],
    ...(run.progress ? [] : [[process.env.CI ? 'dot' : 'list'] as [string]]),
    // `run --reporter`: one of Playwright's own, beside the kit's; file reporters write under the output folder.
    ...(run.reporter ? [[run.reporter, { outputFile: `${reports}/playwright-${run.reporter}.${run.reporter === 'junit' ? 'xml' : 'json'}`, outputFolder: `${reports}/playwright-${run.reporter}`, open: 'never' }] as [string, object]] : []),
    ['./run-reporter.ts', { outputDir: reports, progress: run.progress }],
    ['html', { outputFolder: `${reports}/playwright`, open: 'never' }],
    ...(run.blob ? [['blob', { outputDir: `${reports}/blob`, fileName: `${run.blob}.zip` }] as [string, object]] : []),
    // Last: masks the profile's secrets in what Playwright wrote itself (call logs name the authorization header).
    ['./reporter/redact-artifacts.ts', { dirs: [`${reports}/playwright`, `${reports}/test-results`, `${reports}/blob`] }],
  ],
  projects: [
    // No tests of its own (the global setup checks the target answers, with no worker to start): it
    // anchors `serial` as its teardown, which Playwright runs once every project depending on it ended.
    { name: 'setup', testMatch: [], teardown: 'serial' },
    // One project for the parallel tests (features, properties, generative): a project has workers of
    // its own, so three would start workers three times and run one after the other (docs/history.md).
    // Against a remote target the longest test, about 100 requests that must go in order (the stateful
    // generative run), is queued first through a project of its own (a phase's projects are queued in this
    // order): in file order it started last and ended the parallel project ~9 s after every other test at
    // +100 ms a request. One more worker start; against the embedded mock, whose tests are CPU, not worth it.
    ...(longFirst ? [{ name: 'conformance-long', testMatch: LONG_FIRST, dependencies: ['setup'], ...(grep && { grep }) }] : []),
    { name: 'conformance', testMatch: /(conformance|properties|generative)\/.*\.spec\.ts/, ...(longFirst && { testIgnore: LONG_FIRST }), dependencies: ['setup'], ...(grep && { grep }) },
    { name: 'serial', testMatch: /serial\/.*\.spec\.ts/, workers: 1, fullyParallel: false, ...(grep && { grep }) },
  ],
});
