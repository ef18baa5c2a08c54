/**
 * The target under test, as the suite's workers see it: the profile named by TARGET_PROFILE (resolved:
 * `env:` secrets read), with its base URL overridden by TARGET_URL when set (design.md §3).
 * The global setup sets both for the embedded mock.
 */
import { loadProfile, type TargetProfile } from '../../contract/profile.ts';

let cached: TargetProfile | undefined;

/** The resolved profile of this run (cached per process). Throws ProfileError when it is unusable. */
export function targetProfile(): TargetProfile {
  if (cached) return cached;
  const file = process.env.TARGET_PROFILE;
  if (!file) throw new Error('TARGET_PROFILE is not set: the suite needs a target profile (see README, "Certifying your implementation").');
  const profile = loadProfile(file);
  if (process.env.TARGET_URL) profile.baseUrl = process.env.TARGET_URL.replace(/\/$/, '');
  cached = profile;
  return profile;
}
