/**
 * Rate limits (Authentication 2–3; Limits): the budgets by key prefix, the three headers, 429 with
 * Retry-After, separate buckets, and the budget's return. Uses the profile's dedicated rateLimit keys,
 * which these tests spend; runs in the serial project, after every other test.
 */
import { test, expect } from '../fixtures.ts';
import { runSeriallyOnce } from './serial-only.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { advanceClock, targetNow } from '../lib/control.ts';
import type { ApiClient } from '../lib/client.ts';

runSeriallyOnce();

const header = (r: { headers: Record<string, string> }, name: string) => Number(r.headers[name]);

async function spend(client: ApiClient): Promise<{ lastOk: number; refused: Awaited<ReturnType<ApiClient['get']>> }> {
  let lastOk = 0;
  for (let i = 0; i < 1100; i++) {
    const r = await client.get('/meters', { query: { limit: 1 } });
    if (r.status === 429) return { lastOk, refused: r };
    expect(r.status).toBe(200);
    lastOk = header(r, 'x-ratelimit-remaining');
  }
  throw new Error('no 429 after 1,100 requests');
}

test('sk_live_ keys have a limit of 1,000 per minute', { tag: ['@RATE-001'] }, async ({ api }) => {
  const r = await api.get('/meters', { query: { limit: 1 } });
  expect(header(r, 'x-ratelimit-limit')).toBe(1000);
});

test('sk_test_ keys have a limit of 100 per minute', { tag: ['@RATE-002'] }, async ({ as }) => {
  const r = await as.test().get('/meters', { query: { limit: 1 } });
  expect(header(r, 'x-ratelimit-limit')).toBe(100);
});

test('X-RateLimit-Remaining falls by one per request; X-RateLimit-Reset is the window end', { tag: ['@RATE-003', '@RATE-004', '@RATE-011'] }, async ({ as, profile, request }) => {
  const client = as.role('keys.rateLimit.live');
  client.session.pace = false;
  const seen: Array<{ remaining: number; reset: number }> = [];
  for (let i = 0; i < 5; i++) {
    const r = await client.get('/meters', { query: { limit: 1 } });
    seen.push({ remaining: header(r, 'x-ratelimit-remaining'), reset: header(r, 'x-ratelimit-reset') });
  }
  const now = (await targetNow(request, profile)) / 1000;
  for (let i = 1; i < seen.length; i++) {
    if (seen[i]!.reset !== seen[i - 1]!.reset) continue; // a new window began between the two
    expect(seen[i]!.remaining, 'remaining falls by one').toBe(seen[i - 1]!.remaining - 1);
  }
  const reset = seen.at(-1)!.reset;
  expect(reset, 'reset is after now').toBeGreaterThan(now - 2);
  expect(reset, 'reset is within the minute').toBeLessThanOrEqual(now + 62);
  expect(reset % 60, 'the window is aligned to the clock minute (inferred)').toBe(0);
});

test('the request after the budget gets 429 with Retry-After; other buckets are untouched', { tag: ['@RATE-005', '@RATE-006', '@RATE-009'] }, async ({ as }) => {
  const testKey = as.role('keys.rateLimit.test');
  testKey.session.pace = false;
  const { lastOk, refused } = await spend(testKey);
  expect(lastOk, 'the last success had no request left').toBe(0);
  expectProblem(refused, 429);
  const retryAfter = Number(refused.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${refused.headers['retry-after']} is whole seconds`).toBe(true);
  expect(retryAfter).toBeLessThanOrEqual(61);
  const live = await as.role('keys.rateLimit.live').get('/meters', { query: { limit: 1 } });
  expect(live.status, 'the sk_live_ bucket is separate').toBe(200);
  // The dedicated live key made a handful of requests in this run; a bucket shared with the test key
  // would have lost the test key's 100 as well.
  expect(header(live, 'x-ratelimit-remaining'), "the sk_test_ key's requests left the sk_live_ budget untouched").toBeGreaterThan(header(live, 'x-ratelimit-limit') - 100);
});

test('the budget returns after the reset', { tag: ['@RATE-007', '@slow'] }, async ({ as, profile, request }) => {
  const testKey = as.role('keys.rateLimit.test');
  testKey.session.pace = false;
  let r = await testKey.get('/meters', { query: { limit: 1 } });
  if (r.status !== 429) r = (await spend(testKey)).refused;
  const wait = Number(r.headers['retry-after']);
  if (!(await advanceClock(request, profile, wait))) {
    // A target without the mock's clock: the window passes in real time, which the test's budget must cover.
    test.info().setTimeout(test.info().timeout + (wait + 5) * 1000);
    await new Promise((done) => setTimeout(done, (wait + 1) * 1000));
  }
  const after = await testKey.get('/meters', { query: { limit: 1 } });
  expect(after.status).toBe(200);
  expect(header(after, 'x-ratelimit-remaining')).toBe(99);
});

test('every authenticated request counts, whatever its status; 401s do not', { tag: ['@RATE-010'] }, async ({ as, profile }) => {
  const client = as.role('keys.rateLimit.live');
  client.session.pace = false;
  const a = await client.get('/meters', { query: { limit: 1 } });
  await client.get('/meters/mtr_doesnotexist0000');
  await as.header(`Bearer ${profile.keys.rateLimit!.live!.slice(0, -1)}Q`).get('/meters');
  const b = await client.get('/meters', { query: { limit: 1 } });
  if (header(b, 'x-ratelimit-reset') === header(a, 'x-ratelimit-reset')) {
    expect(header(b, 'x-ratelimit-remaining')).toBe(header(a, 'x-ratelimit-remaining') - 2);
  }
});
