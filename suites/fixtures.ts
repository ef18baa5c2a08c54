/**
 * The suite's base `test` (Playwright `test.extend`, docs/design.md §5): a test body holds only its scenario
 * and assertions. Each kit (kits/*.ts) extends this base with its own fixture, and a spec file that
 * needs several kits composes them with `mergeTests` (as Playwright's own tests/config/*Fixtures.ts).
 * - `settings` (worker option): the run's settings (suites/lib/settings.ts), set by the config.
 * - `profile`: the resolved target profile.
 * - `api`: a client of the main organization's full-scope live key pool (paced).
 * - `as`: clients by profile role (`as.role('keys.otherOrg')`, `as.scope('meters:read')`,
 *   `as.header('Basic abc')`, `as.anonymous()`); a role the profile lacks skips the test, reported as
 *   not assessed.
 * Every response any client receives is recorded and passes the universal checks (checks/).
 * - `arrange(what, steps)`: runs set-up steps; any failure in them ends the test as not assessed with
 *   the reason, never failed (lib/arrange.ts). The kits' set-up calls and every recipe already run so.
 * - `keepWorker` (auto): a failed test's last attempt keeps its worker (suites/lib/kept-failure.ts).
 * - `requestContext` (worker): the one APIRequestContext every client of the worker sends through.
 * The kit's own fixtures are boxed as `'self'`: they add no step to Playwright's report (each step is two
 * messages to the runner, where the embedded mock answers).
 */
import { test as base, expect, type APIRequestContext } from '@playwright/test';
import { requestUse, type TargetProfile } from '../contract/profile.ts';
import type { Module } from '../contract/openapi.ts';
import { ApiClient, requestTimeoutOf, type ClientSession } from './lib/client.ts';
import { EVIDENCE_ATTACHMENT, evidenceOf } from '../contract/exchange.ts';
import { keepWorkerAfterFailure } from './lib/kept-failure.ts';
import { COVERAGE_ATTACHMENT, observedOf } from '../contract/report/coverage.ts';
import { need, type KeyPath } from './lib/needs.ts';
import { releaseLeases } from './lib/lease.ts';
import { RateGovernor } from './lib/pacing.ts';
import { Redactor } from './lib/redact.ts';
import { targetProfile } from './lib/target.ts';
import { DEFAULT_SETTINGS, installSettings, type RunSettings } from './lib/settings.ts';
import type { CheckState } from '../contract/checks/registry.ts';
import { arrange } from './lib/arrange.ts';
import { mapOwnFramesOnly } from './lib/stack-frames.ts';

/** Clients by role of the target profile. */
export interface Roles {
  /** The key at a dotted path of the profile (`keys.otherOrg`; a typo fails the typecheck); skips when absent. */
  role(path: KeyPath): ApiClient;
  /** The key holding only `scope` (`keys.scopes.<scope>`). */
  scope(scope: string): ApiClient;
  /** A full-scope key of an organization with `module` disabled. */
  moduleDisabled(module: Module): ApiClient;
  /** The main organization's sk_test_ key. */
  test(): ApiClient;
  /** Another organization's full-scope key. */
  otherOrg(): ApiClient;
  /** No Authorization header. */
  anonymous(): ApiClient;
  /** A literal Authorization header value. */
  header(value: string): ApiClient;
  /** One fixed key, unpaced by a pool (for requests that must use exactly this key). */
  key(secret: string): ApiClient;
}

interface WorkerFixtures {
  /** The run's settings (suites/lib/settings.ts), a Playwright option the config sets. */
  settings: RunSettings;
  settingsInstalled: void;
  profile: TargetProfile;
  requestContext: APIRequestContext;
  governor: RateGovernor;
  redactor: Redactor;
  checkState: CheckState;
}

interface TestFixtures {
  keepWorker: void;
  session: ClientSession;
  api: ApiClient;
  as: Roles;
  arrange: typeof arrange;
}

// Playwright's step locations: only the kit's own frames go through source maps (suites/lib/stack-frames.ts).
mapOwnFramesOnly();

/** A fixture of the kit's own plumbing: no step of its own in Playwright's report (`box: 'self'`), so no step messages per test. */
const plumbing = { box: 'self' } as const;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // Auto, so set up first and torn down last: it sees the test's final status, after every other fixture's teardown.
  keepWorker: [async ({}, use, testInfo) => {
    await use();
    keepWorkerAfterFailure(testInfo);
  }, { auto: true, ...plumbing }],
  settings: [DEFAULT_SETTINGS, { option: true, scope: 'worker' }],
  // Auto: the worker's settings are installed for the code tests call (suites/lib/settings.ts runSettings).
  settingsInstalled: [async ({ settings }, use) => {
    installSettings(settings);
    await use();
  }, { scope: 'worker', auto: true }],
  profile: [async ({}, use) => use(targetProfile()), { scope: 'worker' }],
  governor: [async ({}, use) => use(new RateGovernor()), { scope: 'worker' }],
  redactor: [async ({ profile }, use) => use(Redactor.forProfile(profile)), { scope: 'worker' }],
  checkState: [async ({}, use) => use({ requestIds: new Set<string>() }), { scope: 'worker' }],
  // One request context per worker, with the options the config's `use` gives Playwright's `request`
  // fixture (the profile's headers, TLS and proxy: contract/profile.ts requestUse). Playwright's fixture
  // makes and disposes a context per test: about a tenth of a worker's CPU against the embedded mock
  // (docs/history.md, "The suite's fixed costs"). A test's cookies do not outlive it (`session`).
  requestContext: [async ({ playwright, profile }, use) => {
    const context = await playwright.request.newContext(requestUse(profile));
    await use(context);
    await context.dispose();
  }, { scope: 'worker' }],

  session: [async ({ requestContext, profile, governor, redactor, checkState, settings }, use, testInfo) => {
    const session: ClientSession = {
      request: requestContext, baseUrl: profile.baseUrl, governor, redactor, checkState, requestTimeoutMs: requestTimeoutOf(settings.testTimeout),
      exchanges: [], checkFailures: [], pace: true, lastRead: -1, cookiesSet: false,
      stillPassing: () => testInfo.status === 'passed',
    };
    await use(session);
    try {
      releaseLeases();
      // The next test starts with no cookie, as with a context of its own.
      if (session.cookiesSet) await requestContext.clearCookies();
    } finally {
      const failed = testInfo.status !== 'passed' && testInfo.status !== 'skipped';
      // Pushed, not `testInfo.attach`: the same attachment for the reporters, without a step (and its
      // stack trace) or the test's output folder made for it.
      testInfo.attachments.push({ name: EVIDENCE_ATTACHMENT, body: Buffer.from(JSON.stringify(evidenceOf(session, failed))), contentType: 'application/json' });
      // What the test's exchanges reached of each operation's statuses and inputs (the report's coverage).
      if (session.exchanges.length) testInfo.attachments.push({ name: COVERAGE_ATTACHMENT, body: Buffer.from(JSON.stringify(observedOf(session.exchanges))), contentType: 'application/json' });
    }
  }, plumbing],

  api: [async ({ session, profile }, use, testInfo) => {
    await use(new ApiClient(session, { pool: profile.keys.live, offset: testInfo.parallelIndex }));
  }, plumbing],

  arrange: [async ({}, use) => use(arrange), plumbing],

  as: [async ({ session, profile }, use) => {
    const key = (secret: string) => new ApiClient(session, { key: secret });
    await use({
      role: (path) => key(need(profile, path)),
      scope: (scope) => key(need(profile, `keys.scopes.${scope}`)),
      moduleDisabled: (module) => key(need(profile, `keys.moduleDisabled.${module}`)),
      test: () => key(need(profile, 'keys.test')),
      otherOrg: () => key(need(profile, 'keys.otherOrg')),
      anonymous: () => new ApiClient(session, { header: null }),
      header: (value) => new ApiClient(session, { header: value }),
      key,
    });
  }, plumbing],
});

export { expect };
