/**
 * The shared first-page cursors of suites/lib/walk-pages.ts: one issued cursor per key and worker; a
 * shared cursor that no longer continues is replaced once (one that never continues skips its test as
 * not assessed, which a unit test cannot observe without being skipped itself).
 */
import { test, expect } from '@playwright/test';
import { continuingCursor, issuedCursor } from '../lib/walk-pages.ts';
import type { ApiResponse } from '../lib/client.ts';

const answer = (status: number) => ({ status }) as ApiResponse;

test('a cursor is issued once per key and then shared', async () => {
  let issued = 0;
  const issue = async () => ({ cursor: `c${++issued}` });
  expect((await issuedCursor('shared /meters', issue)).cursor).toBe('c1');
  expect((await issuedCursor('shared /meters', issue)).cursor).toBe('c1');
  expect((await continuingCursor('shared /meters', issue, async () => answer(200))).cursor).toBe('c1');
  expect((await issuedCursor('shared /assets', issue)).cursor).toBe('c2');
  expect(issued).toBe(2);
});

test('a shared cursor that no longer continues is replaced by a fresh one', async () => {
  let issued = 0;
  const issue = async () => ({ cursor: `c${++issued}` });
  await issuedCursor('stale /meters', issue);
  const resumed: string[] = [];
  const resume = async (cursor: string) => { resumed.push(cursor); return answer(cursor === 'c1' ? 400 : 200); };
  expect((await continuingCursor('stale /meters', issue, resume)).cursor).toBe('c2');
  expect(resumed).toEqual(['c1', 'c2']);
  expect((await issuedCursor('stale /meters', issue)).cursor).toBe('c2');
});
