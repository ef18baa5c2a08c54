/**
 * Leases of profile fixtures across the suite's parallel workers: a fixture (a stocked part, a pending
 * work request) is used by one test at a time, or consumed by one test for the whole run. A lease is an
 * atomic `mkdir` in the run's scratch folder (the `settings` option's runDir, made by the CLI).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runSettings } from './settings.ts';

function runDir(): string {
  const dir = runSettings().runDir;
  if (!dir) throw new Error('the run has no scratch folder (MMS_RUN_DIR): run the suite through mms-conformance run');
  return dir;
}

function tryLease(name: string): boolean {
  try {
    mkdirSync(join(runDir(), `lease-${name}`));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/**
 * Takes the first free item of `items` (a fixture pool named `pool`) for the running test. With
 * `consume`, the item stays taken for the rest of the run; otherwise it is returned when the test ends.
 * Waits while every item is taken by another test; returns undefined at once when the pool is empty,
 * and when all are consumed.
 */
export async function lease<T>(pool: string, items: readonly T[], options: { consume?: boolean; waitMs?: number } = {}): Promise<T | undefined> {
  if (items.length === 0) return undefined; // the profile has none: nothing to wait for
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  for (;;) {
    for (let i = 0; i < items.length; i++) {
      if (!tryLease(`${pool}-${i}`)) continue;
      if (!options.consume) {
        const name = join(runDir(), `lease-${pool}-${i}`);
        releaseAtEnd.push(name);
      }
      return items[i];
    }
    if (options.consume || Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const releaseAtEnd: string[] = [];

/** Returns every lease the test holds (called by the session fixture when the test ends). */
export function releaseLeases(): void {
  for (const name of releaseAtEnd.splice(0)) rmSync(name, { recursive: true, force: true });
}
