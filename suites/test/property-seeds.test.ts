/**
 * The run's seed (contract/run-seed.ts, docs/vendors.md "Seeds and determinism"): fixed by default,
 * `run --seed` (FC_SEED) changes it; `run --explore-seeds K` adds K fresh seeds per property, and a
 * failure an explored seed found names it.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { DEFAULT_SEED, exploreSeeds, runSeed, seedsToTry } from '../../contract/run-seed.ts';
import { assertProperty } from '../lib/property.ts';
import { installSettings } from '../lib/settings.ts';

test('the seed is fixed by default and --seed changes it; a value that is not an integer is refused', () => {
  expect(runSeed({})).toBe(DEFAULT_SEED);
  expect(runSeed({ seed: 7 })).toBe(7);
  expect(() => runSeed({ seed: Number('seven') })).toThrow(/must be an integer, got NaN/);
  expect(exploreSeeds({})).toBe(0);
  expect(exploreSeeds({ exploreSeeds: 3 })).toBe(3);
});

test('exploring keeps the run\'s seed first and adds distinct fresh ones', () => {
  expect(seedsToTry(5, 0)).toEqual([5]);
  const seeds = seedsToTry(5, 4);
  expect(seeds[0]).toBe(5);
  expect(new Set(seeds).size).toBe(5);
  // A random source that repeats the run's seed and itself: the repeats are skipped.
  const values = [5 / 0x7fffffff, 5 / 0x7fffffff, 9 / 0x7fffffff, 9 / 0x7fffffff, 11 / 0x7fffffff];
  expect(seedsToTry(5, 2, () => values.shift()!)).toEqual([5, 9, 11]);
});

test('the same seed draws the same cases; a property failing only under an explored seed names that seed', async () => {
  const drawn = async () => {
    const seen: number[] = [];
    await assertProperty(fc.property(fc.integer(), (n) => { seen.push(n); }), 5);
    return seen;
  };
  installSettings({ seed: 42, exploreSeeds: 0, testTimeout: 60_000 });
  expect(await drawn()).toEqual(await drawn());
  installSettings({ seed: 42, exploreSeeds: 2, testTimeout: 60_000 });
  // Passes its first 5 cases (the run's seed), fails every case after: only an explored seed can find it.
  let calls = 0;
  const failure = await assertProperty(fc.property(fc.integer(), () => ++calls <= 5), 5).then(() => undefined, (e: Error) => e.message);
  expect(failure).toMatch(/Explored seed (\d+) found this failure \(the run's seed 42 did not\); rerun with --seed \1\.$/);
  const explored = /Explored seed (\d+)/.exec(failure!)![1];
  expect(failure).toContain(`seed: ${explored}`);
});
