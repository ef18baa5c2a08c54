/**
 * Global setup of a conformance run: the target is TARGET_URL + TARGET_PROFILE; without TARGET_URL the
 * embedded mock is started in-process (seed MOCK_SEED, default 1; mutant MOCK_MUTANT, none by default) and
 * its profile is used. Either way the
 * target must answer HTTP before any test runs, else the run stops with one clear line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile, ProfileError } from '../../contract/profile.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';

declare global {
  // eslint-disable-next-line no-var
  var __embeddedMock: RunningMock | undefined;
}

/** Throws one line when `baseUrl` does not answer HTTP. */
export async function assertReachable(baseUrl: string): Promise<void> {
  try {
    await fetch(`${baseUrl}/meters`, { signal: AbortSignal.timeout(10_000) });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`target ${baseUrl} is unreachable: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
}

export default async function globalSetup(): Promise<void> {
  process.env.MMS_RUN_DIR = mkdtempSync(join(tmpdir(), 'mms-run-'));
  if (process.env.TARGET_URL || process.env.TARGET_PROFILE) {
    if (!process.env.TARGET_PROFILE) throw new Error('TARGET_URL is set but TARGET_PROFILE is not: give the target profile too.');
    let baseUrl: string;
    try {
      baseUrl = process.env.TARGET_URL?.replace(/\/$/, '') ?? loadProfile(process.env.TARGET_PROFILE).baseUrl;
    } catch (e) {
      throw e instanceof ProfileError ? new Error(e.message) : e;
    }
    await assertReachable(baseUrl);
    process.env.TARGET_URL = baseUrl;
    return;
  }
  const seed = process.env.MOCK_SEED ? Number(process.env.MOCK_SEED) : undefined;
  // MOCK_MUTANT (the self-test, tools/selftest.ts): the embedded mock breaks one requirement on purpose.
  const mutation = process.env.MOCK_MUTANT ? (await import('../../mock/mutants/catalog.ts')).mutantNamed(process.env.MOCK_MUTANT).mutation : undefined;
  const mock = await startMock({ port: 0, seed, mutation });
  globalThis.__embeddedMock = mock;
  const dir = mkdtempSync(join(tmpdir(), 'mms-conformance-'));
  const file = join(dir, 'embedded-mock.json');
  writeFileSync(file, JSON.stringify(mock.profile, null, 2));
  process.env.TARGET_PROFILE = file;
  process.env.TARGET_URL = mock.baseUrl;
  process.env.TARGET_EMBEDDED = '1';
}
