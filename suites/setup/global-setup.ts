/**
 * Global setup of a conformance run (docs/design.md §5), in Playwright's runner process: the target is the
 * run's profile (contract/run-env.ts); without one the embedded mock is started in this process (the
 * run's mock seed, default 1; its mutant and variants, none by default) and its profile is used. Either way the target
 * must answer HTTP before any test runs, else the run stops with one clear line. The mock stops with the
 * global teardown, or with this process. The run's temporary folders (MMS_RUN_DIR; the embedded mock's
 * profile, mode 0600) are removed when this process exits, also on SIGINT and SIGTERM.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProfileError, requestUse, type TargetProfile } from '../../contract/profile.ts';
import { extendRunEnv, readRunEnv } from '../../contract/run-env.ts';
import { markTime, processStart } from '../../contract/timings.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { assertReachable, targetProfile } from '../lib/target.ts';

declare global {
  // eslint-disable-next-line no-var
  var __embeddedMock: RunningMock | undefined;
}

const temporary: string[] = [];

/** Removes the run's temporary folders (the embedded mock's profile holds every key). */
function removeTemporary(): void {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Removes the temporary folders when this process exits, also on SIGINT or SIGTERM: a signal nobody
 * else handles is raised again once they are gone, so the process still ends by it.
 */
function removeTemporaryAtExit(): void {
  process.once('exit', removeTemporary);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      removeTemporary();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/** A new folder in the temp dir, private to this user (mkdtemp: 0700), removed at exit. */
function temporaryDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (temporary.length === 0) removeTemporaryAtExit();
  temporary.push(dir);
  return dir;
}

export default async function globalSetup(): Promise<void> {
  markTime('runner.start', processStart());
  markTime('globalSetup.start');
  try {
    await setUp();
  } finally {
    markTime('globalSetup.end');
  }
}

/** The target (or the embedded mock) and the run's environment for the workers. */
async function setUp(): Promise<void> {
  extendRunEnv({ runDir: temporaryDir('mms-run-') });
  const run = readRunEnv();
  if (run.targetUrl || run.targetProfile) {
    if (!run.targetProfile) throw new Error('TARGET_URL is set but TARGET_PROFILE is not: give the target profile too.');
    let profile: TargetProfile;
    try {
      profile = targetProfile();
    } catch (e) {
      throw e instanceof ProfileError ? new Error(e.message) : e;
    }
    const baseUrl = profile.baseUrl;
    await assertReachable(baseUrl, requestUse(profile));
    extendRunEnv({ targetUrl: baseUrl });
    return;
  }
  // The mutant (the self-test, tools/selftest.ts): the embedded mock breaks one requirement on purpose.
  const mutant = run.mockMutant ? (await import('../../mock/mutants/catalog.ts')).mutantNamed(run.mockMutant).mutation : undefined;
  // Variants (docs/freedoms.md): freedoms of the description served differently.
  const mutation = run.mockVariant ? (await import('../../mock/variants/catalog.ts')).variantMutation(run.mockVariant, mutant) : mutant;
  // Prism (the mock's `Prefer` fallback) is not preloaded: the suite sends no `Prefer` request, and its
  // second of CPU would delay loading the test files in this process.
  const mock = await startMock({ port: 0, seed: run.mockSeed, mutation, preloadPrism: false });
  globalThis.__embeddedMock = mock;
  const file = join(temporaryDir('mms-conformance-'), 'embedded-mock.json');
  writeFileSync(file, JSON.stringify(mock.profile, null, 2), { mode: 0o600 });
  extendRunEnv({ targetProfile: file, targetUrl: mock.baseUrl, targetEmbedded: true });
}
