/**
 * Skipping with a reason that names what the target profile lacks (docs/design.md §3): the test's
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

/**
 * Every dotted path to a property of `T` (`keys.otherOrg`, `keys.scopes.meters:read`): records with
 * named properties give their names, free maps (`Record<string, …>`) any string; arrays are leaves.
 */
export type PathOf<T> = T extends readonly unknown[] ? never : T extends object
  ? { [K in keyof T & string]-?: K | (PathOf<NonNullable<T[K]>> extends infer P extends string ? `${K}.${P}` : never) }[keyof T & string]
  : never;

/** The type of the property of `T` at the dotted path `P`. */
export type AtPath<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T ? AtPath<NonNullable<T[Head]>, Rest> : T extends Record<string, infer V> ? AtPath<NonNullable<V>, Rest> : never
  : P extends keyof T ? NonNullable<T[P]> : T extends Record<string, infer V> ? NonNullable<V> : never;

/** A dotted path of the target profile: a misspelt role or fixture fails the typecheck. */
export type ProfilePath = PathOf<TargetProfile>;

/**
 * The value at a dotted path of the profile (`keys.otherOrg`, `fixtures.rejectedWorkRequestId`), typed
 * by the path; when it is absent, null or an empty list, skips the test naming the path (not assessed).
 */
export function need<P extends ProfilePath>(profile: TargetProfile, path: P): AtPath<TargetProfile, P> {
  let node: unknown = profile;
  for (const part of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (node === undefined || node === null || (Array.isArray(node) && node.length === 0)) notAssessed(`the target profile has no ${path}`);
  return node as AtPath<TargetProfile, P>;
}

/** A dotted path of the profile that holds one key (`keys.otherOrg`, `keys.rateLimit.live`). */
export type KeyPath = { [P in ProfilePath]: P extends `keys.${string}` ? (AtPath<TargetProfile, P> extends string ? P : never) : never }[ProfilePath];
