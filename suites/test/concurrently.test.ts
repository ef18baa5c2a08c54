/**
 * suites/lib/concurrently.ts: a test's independent requests at once, bounded, results in order, the first
 * failure rethrown once what was started has settled.
 */
import { test, expect } from '@playwright/test';
import { concurrently, IN_FLIGHT_PER_TEST } from '../lib/concurrently.ts';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('results come in the items\' order, whatever order the work ends in', async () => {
  const out = await concurrently([30, 5, 20, 1], async (ms, i) => {
    await tick(ms);
    return `${i}:${ms}`;
  });
  expect(out).toEqual(['0:30', '1:5', '2:20', '3:1']);
});

test('at most `limit` items are in flight, and the limit is reached', async () => {
  let inFlight = 0;
  let most = 0;
  await concurrently(Array.from({ length: 20 }, (_, i) => i), async () => {
    most = Math.max(most, ++inFlight);
    await tick(5);
    inFlight--;
  }, 3);
  expect(most).toBe(3);
  most = 0;
  await concurrently(Array.from({ length: 20 }, (_, i) => i), async () => {
    most = Math.max(most, ++inFlight);
    await tick(5);
    inFlight--;
  });
  expect(most).toBe(IN_FLIGHT_PER_TEST);
});

test('the first failure rejects after the started work settles; nothing starts after it', async () => {
  const started: number[] = [];
  const settled: number[] = [];
  const run = concurrently([0, 1, 2, 3, 4, 5, 6, 7], async (i) => {
    started.push(i);
    if (i === 1) throw new Error('item 1 failed');
    await tick(20);
    settled.push(i);
  }, 2);
  await expect(run).rejects.toThrow('item 1 failed');
  // Items 0 and 1 started together; 1 failed at once, so 2 never started; 0 was awaited before the rejection.
  expect(started).toEqual([0, 1]);
  expect(settled).toEqual([0]);
});

test('no items: an empty result; a bad limit is refused', async () => {
  expect(await concurrently([], async () => 1)).toEqual([]);
  await expect(concurrently([1], async () => 1, 0)).rejects.toThrow('limit must be a positive integer');
});
