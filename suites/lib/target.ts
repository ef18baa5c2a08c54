/**
 * The target under test (docs/design.md §1): its resolved profile, as the suite's workers
 * and the reporter see it, and the reachability check the CLI makes before any test.
 */
import { request } from '@playwright/test';
import { loadProfile, type RequestUse, type TargetProfile } from '../../contract/profile.ts';
import { readRunEnv } from '../../contract/run-env.ts';
import { Redactor } from './redact.ts';

let cached: TargetProfile | undefined;

/**
 * The resolved profile of this run (`env:` secrets read): the run's profile file with its base URL
 * overridden by the run's target URL when set. Loaded and validated once per process. Throws
 * ProfileError when it is unusable, Error when the run names no profile.
 */
export function targetProfile(): TargetProfile {
  if (cached) return cached;
  const run = readRunEnv();
  if (!run.targetProfile) throw new Error('TARGET_PROFILE is not set: the suite needs a target profile (see docs/vendors.md).');
  const profile = loadProfile(run.targetProfile);
  if (run.targetUrl) profile.baseUrl = run.targetUrl;
  cached = profile;
  return profile;
}

/**
 * Throws an Error with one line when `baseUrl` does not answer HTTP within 10 s, sent as the suite
 * sends (the profile's headers, TLS and proxy: `use`).
 */
export async function assertReachable(baseUrl: string, use: RequestUse = {}): Promise<void> {
  const context = await request.newContext(use);
  try {
    await context.get(`${baseUrl}/meters`, { timeout: 10_000, maxRedirects: 0, failOnStatusCode: false });
  } catch (e) {
    const message = (e as Error).message.split('\n')[0]!.replace(/^apiRequestContext\.get: (connect )?/, '');
    throw new Error(`target ${baseUrl} is unreachable: ${message}`);
  } finally {
    await context.dispose();
  }
}

/**
 * The run's redactor: the profile's secrets (with their reproduction variables) when the run has a
 * usable profile, else the key pattern alone (anything shaped like `sk_live_…`).
 */
export function runRedactor(): Redactor {
  try {
    return readRunEnv().targetProfile ? Redactor.forProfile(targetProfile()) : new Redactor([]);
  } catch {
    return new Redactor([]);
  }
}
