/**
 * `mms-conformance profile init` and `profile check` (docs/vendors.md): a
 * starter profile generated from contract/provisioning.ts, and the check of a target's provisioning
 * (cli/profile-check.ts). Usage problems are UsageErrors (one line, exit 2); a wrong entry exits 1.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadProfile, ProfileError, requestUse, type TargetProfile } from '../contract/profile.ts';
import { starterProfile } from '../contract/provisioning.ts';
import { printable } from '../contract/printable.ts';
import { Redactor } from '../contract/redact.ts';
import { assertReachable } from '../suites/lib/target.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { checkProvisioning, formatCheck, wrongLines, type CheckResult } from './profile-check.ts';

/** Writes the starter profile (`full`: every role and fixture) to `output`; refuses to overwrite a file. Throws UsageError. */
export function initProfile(output: string, full = false): number {
  const file = resolve(output);
  if (existsSync(file)) throw new UsageError(`${output} exists; choose another --output`);
  try {
    writeFileSync(file, `${JSON.stringify(starterProfile(full), null, 2)}\n`);
  } catch (e) {
    throw new UsageError(`cannot write ${output}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  process.stdout.write(`Wrote ${output}: fill in what you provisioned (the $comment members say what), then run mms-conformance profile check --profile ${output}\n`);
  return EXIT.ok;
}

/** Loads the profile and checks the target answers; returns the profile and the API base. Throws UsageError. */
export async function profileAndTarget(profileFile: string, target?: string): Promise<{ profile: TargetProfile; baseUrl: string }> {
  let profile: TargetProfile;
  try {
    profile = loadProfile(resolve(profileFile));
  } catch (e) {
    throw new UsageError(e instanceof ProfileError ? e.message : (e as Error).message);
  }
  const baseUrl = target?.replace(/\/$/, '') ?? profile.baseUrl;
  if (!/^https?:\/\/.+\/v1$/.test(baseUrl)) throw new UsageError(`--target ${target ?? baseUrl} must be an http(s) URL ending in /v1`);
  try {
    await assertReachable(baseUrl, requestUse(profile));
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return { profile, baseUrl };
}

/** Runs the check and prints it; resolves to 1 when any entry is wrong, else 0. Throws UsageError. */
export async function checkProfileCommand(o: { profile: string; target?: string }): Promise<number> {
  const { profile, baseUrl } = await profileAndTarget(o.profile, o.target);
  const result = await runCheck(profile, baseUrl);
  process.stdout.write(formatCheck(result));
  return wrongLines(result).length ? EXIT.failed : EXIT.ok;
}

/**
 * checkProvisioning with network failures as UsageErrors of one line: the error's first line only
 * (Playwright's call log after it lists the request's headers), secrets masked, control characters
 * stripped. `timeoutMs`: each probe's (cli/profile-check.ts PROBE_TIMEOUT_MS by default).
 */
export async function runCheck(profile: TargetProfile, baseUrl: string, timeoutMs?: number): Promise<CheckResult> {
  try {
    return await checkProvisioning(profile, baseUrl, timeoutMs);
  } catch (e) {
    const first = String((e as Error).message).split('\n')[0]!.replace(/^apiRequestContext\.fetch: /, '');
    throw new UsageError(printable(Redactor.forProfile(profile).text(`the provisioning check could not reach ${baseUrl}: ${first}`), true));
  }
}
