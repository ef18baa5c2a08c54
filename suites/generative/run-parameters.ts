/**
 * This run's generative parameters (docs/generative.md, "Budget and determinism"), read from the run's
 * settings (suites/lib/settings.ts) through the pure functions of replay.ts.
 *
 * Conventions (as suites/lib/property.ts): the run's seed, printed; `run --seed` and FC_RUNS change it
 * and the run count. The number of generated requests per operation and phase is `genBudget()`
 * (MMS_GEN_BUDGET; default 2), the stateful run's size `statefulBudget()` (the same variable; default
 * 3). Every failure names the seed and a curl command of the failing request, with the key written
 * `$MMS_KEY_LIVE`.
 */
import { test } from '@playwright/test';
import { fc } from '../../contract/arbitraries/valid-values.ts';
import * as replay from './replay.ts';
import type { GenRequest } from './replay.ts';
import { runSettings } from '../lib/settings.ts';

/** Generated requests per operation and phase in this run (replay.ts over the run's settings). */
export const genBudget = (): number => replay.genBudget(runSettings());
/** The stateful run's budget in this run. */
export const statefulBudget = (): number => replay.statefulBudget(runSettings());
/** fast-check parameters of a generative property in this run (replay.ts genParameters). */
export const genParameters = <T>(seed: number, timeLimitMs?: number): fc.Parameters<T> => replay.genParameters<T>(runSettings(), seed, timeLimitMs);
/** The command sequence to replay in this run, if any (replay.ts commandsReplay). */
export const commandsReplay = (): { replayPath?: string } => replay.commandsReplay(runSettings());
/** The digest of requests (replay.ts requestDigest), their text written where the run's settings say. */
export const requestDigest = (requests: GenRequest[]): string => replay.requestDigest(requests, runSettings().genDigestDir);

/**
 * The seed of this test (the run's: `run --seed`, FC_SEED), printed and attached to the test as an annotation with
 * the reproduction command, which names `budget` (the stateful run passes its own, `statefulBudget()`).
 */
export function genSeed(budget = genBudget()): number {
  const settings = runSettings();
  const seed = settings.seed;
  const path = settings.path ? ` FC_PATH=${settings.path}` : '';
  const line = `generative seed=${seed} budget=${budget}${path} — reproduce: FC_SEED=${seed}${path} MMS_GEN_BUDGET=${budget} npx mms-conformance run --grep "${test.info().title}"`;
  test.info().annotations.push({ type: 'fast-check', description: line });
  process.stdout.write(`${line}\n`);
  return seed;
}

/** Picks up to `n` items of `list`, the same ones for the same seed. */
export function pick<T>(list: T[], n: number, seed: number): T[] {
  if (list.length <= n) return list;
  return fc.sample(fc.shuffledSubarray(list, { minLength: n, maxLength: n }), { numRuns: 1, seed })[0]!;
}
