/**
 * The run's seed (docs/vendors.md, "Seeds and determinism"): the one number that fixes every generated
 * input of a run — the fast-check properties' cases and the generative tests' requests — so the same kit
 * version, target state and seed give the same verdicts. It is fixed by default (DEFAULT_SEED), printed
 * in the console and recorded in conformance.json and manifest.json; `run --seed N` changes it (carried
 * to the workers as FC_SEED, the fast-check convention). `run --explore-seeds K` additionally tries K
 * fresh seeds on every property, for a wider search; a failure names the seed that found it.
 */

/** The default seed of every run. */
export const DEFAULT_SEED = 20_240_917;

/** The seed of this run: FC_SEED when set (`run --seed`), else DEFAULT_SEED. Throws on a value that is not an integer. */
export function runSeed(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FC_SEED;
  if (raw === undefined || raw === '') return DEFAULT_SEED;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED=${raw} is not an integer`);
  return seed;
}

/** How many extra seeds each property tries (MMS_EXPLORE_SEEDS, `run --explore-seeds`); 0 by default. */
export function exploreSeeds(env: NodeJS.ProcessEnv = process.env): number {
  const k = Number(env.MMS_EXPLORE_SEEDS ?? 0);
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
