/**
 * The run's seed (docs/vendors.md, "Seeds and determinism"): the one number that fixes every generated
 * input of a run — the fast-check properties' cases and the generative tests' requests — so the same kit
 * version, target state and seed give the same verdicts. It is fixed by default (DEFAULT_SEED), printed
 * in the console and recorded in conformance.json and manifest.json; `run --seed N` changes it (carried
 * to the workers as FC_SEED, the fast-check convention). `run --explore-seeds K` additionally tries K
 * fresh seeds on every property, for a wider search; a failure names the seed that found it.
 */
import type { RunEnv } from './run-env.ts';

/** The default seed of every run. */
export const DEFAULT_SEED = 20_240_917;

/** The seed of a run (`run --seed`, FC_SEED: contract/run-env.ts), else DEFAULT_SEED. Throws on a value that is not an integer. */
export function runSeed(run: Pick<RunEnv, 'seed'>): number {
  if (run.seed === undefined) return DEFAULT_SEED;
  if (!Number.isSafeInteger(run.seed)) throw new Error(`FC_SEED (run --seed) must be an integer, got ${run.seed}`);
  return run.seed;
}

/** How many extra seeds each property tries (`run --explore-seeds`, MMS_EXPLORE_SEEDS); 0 by default. */
export function exploreSeeds(run: Pick<RunEnv, 'exploreSeeds'>): number {
  const k = run.exploreSeeds ?? 0;
  return Number.isSafeInteger(k) && k > 0 ? k : 0;
}

/**
 * The seeds a property runs with: the run's seed first, then `explore` fresh ones (drawn at random,
 * 31-bit, never the run's seed), so the default run is the same every time and exploring only adds.
 */
export function seedsToTry(seed: number, explore: number, random: () => number = Math.random): number[] {
  const seeds = [seed];
  while (seeds.length < explore + 1) {
    const s = Math.floor(random() * 0x7fffffff);
    if (!seeds.includes(s)) seeds.push(s);
  }
  return seeds;
}
