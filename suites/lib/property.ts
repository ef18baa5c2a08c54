/**
 * fast-check in the suite: every property prints its seed and takes its run count from FC_RUNS
 * (default given per property), so a failure is reproduced with one command; FC_PATH replays exactly
 * the shrunk counterexample a failure names (the report prints the command):
 *   FC_SEED=<seed> FC_PATH=<path> npx mms-conformance run --grep "<title>"
 */
import fc from 'fast-check';
import { test } from '@playwright/test';

/** Parameters for fc.assert: the seed (FC_SEED or fresh) and run count (FC_RUNS or `defaultRuns`). */
export function propertyParameters<T>(defaultRuns: number): fc.Parameters<T> {
  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() ^ (Math.random() * 0x7fffffff);
  const numRuns = process.env.FC_RUNS ? Number(process.env.FC_RUNS) : defaultRuns;
  const line = `fast-check seed=${seed} runs=${numRuns} — reproduce: FC_SEED=${seed} FC_RUNS=${numRuns} npm run conformance -- --grep "${test.info().title}"`;
  test.info().annotations.push({ type: 'fast-check', description: line });
  process.stdout.write(`${line}\n`);
  return { seed, numRuns, endOnFailure: true, ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}) };
}

export { fc };
