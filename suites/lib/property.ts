/**
 * fast-check in the suite (docs/vendors.md, "Seeds and determinism"): every property runs with the run's
 * seed (contract/run-seed.ts: fixed by default, `run --seed N` or FC_SEED to change it), so the same
 * seed gives the same cases and the same verdicts; its run count comes from FC_RUNS (default given per
 * property). `run --explore-seeds K` also tries K fresh seeds per property; a failure names the seed
 * that found it. FC_PATH replays exactly the shrunk counterexample a failure names (the report prints
 * the command):
 *   FC_SEED=<seed> FC_PATH=<path> npx mms-conformance run --grep "<title>"
 */
import fc from 'fast-check';
import { test } from '@playwright/test';
import { seedsToTry } from '../../contract/run-seed.ts';
import { runSettings } from './settings.ts';

/** Parameters for fc.assert with `seed` (default: the run's) and the run count (FC_RUNS or `defaultRuns`); printed and annotated. */
export function propertyParameters<T>(defaultRuns: number, seed = runSettings().seed): fc.Parameters<T> {
  const settings = runSettings();
  const numRuns = settings.runs ?? defaultRuns;
  const line = `fast-check seed=${seed} runs=${numRuns} — reproduce: npx mms-conformance run --seed ${seed} --grep "${test.info().title}" (FC_RUNS=${numRuns})`;
  test.info().annotations.push({ type: 'fast-check', description: line });
  process.stdout.write(`${line}\n`);
  return { seed, numRuns, endOnFailure: true, ...(settings.path ? { path: settings.path } : {}) };
}

/**
 * Asserts `property` with the run's seed, then with each seed `run --explore-seeds` adds, stopping at
 * the first failure. fast-check's message names the seed and path of the failing case; when an explored
 * seed found it, the message ends saying so (`Explored seed N found this failure …; rerun with --seed N.`).
 */
export async function assertProperty<Ts>(property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>, defaultRuns: number): Promise<void> {
  const { seed, exploreSeeds } = runSettings();
  const seeds = seedsToTry(seed, exploreSeeds);
  for (const [i, seed] of seeds.entries()) {
    try {
      await fc.assert(property as fc.IAsyncProperty<Ts>, propertyParameters<Ts>(defaultRuns, seed));
    } catch (e) {
      if (i > 0 && e instanceof Error) e.message = `${e.message}\nExplored seed ${seed} found this failure (the run's seed ${seeds[0]} did not); rerun with --seed ${seed}.`;
      throw e;
    }
  }
}

export { fc };
