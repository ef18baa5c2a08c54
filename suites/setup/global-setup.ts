/**
 * Global setup of a conformance run (design.md §5), in Playwright's runner process: the target is the
 * run's profile (contract/run-env.ts); without one the embedded mock is started in this process (the
 * run's mock seed, default 1; its mutant, none by default) and its profile is used. Either way the target
 * must answer HTTP before any test runs, else the run stops with one clear line. The mock stops with the
 * global teardown, or with this process.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProfileError, requestUse, type TargetProfile } from '../../contract/profile.ts';
import { extendRunEnv, readRunEnv } from '../../contract/run-env.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { assertReachable, targetProfile } from '../lib/target.ts';

declare global {
  // eslint-disable-next-line no-var
  var __embeddedMock: RunningMock | undefined;
}

export default async function globalSetup(): Promise<void> {
  extendRunEnv({ runDir: mkdtempSync(join(tmpdir(), 'mms-run-')) });
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
  const mutation = run.mockMutant ? (await import('../../mock/mutants/catalog.ts')).mutantNamed(run.mockMutant).mutation : undefined;
  const mock = await startMock({ port: 0, seed: run.mockSeed, mutation });
  globalThis.__embeddedMock = mock;
  const file = join(mkdtempSync(join(tmpdir(), 'mms-conformance-')), 'embedded-mock.json');
  writeFileSync(file, JSON.stringify(mock.profile, null, 2));
  extendRunEnv({ targetProfile: file, targetUrl: mock.baseUrl, targetEmbedded: true });
}
