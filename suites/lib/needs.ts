/**
 * Skipping with a reason that names what the target profile lacks (design.md §3): the test's
 * requirements are then reported as "not assessed", so a vendor sees exactly what to provision.
 */
import { test } from '@playwright/test';
import type { TargetProfile } from '../../contract/profile.ts';

/** The prefix of every skip reason that makes a requirement "not assessed". */
export const NOT_ASSESSED = 'not assessed:';

/** Skips the running test: `why` says what is missing. Never returns. */
export function notAssessed(why: string): never {
  test.info().skip(true, `${NOT_ASSESSED} ${why}`);
  throw new Error('unreachable');
}

/** The value at a dotted path of the profile (`keys.otherOrg`, `fixtures.rejectedWorkRequestId`), or a skip naming it. */
export function need<T = string>(profile: TargetProfile, path: string): T {
  let node: unknown = profile;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (node === undefined || node === null || (Array.isArray(node) && node.length === 0)) notAssessed(`the target profile has no ${path}`);
  return node as T;
}
