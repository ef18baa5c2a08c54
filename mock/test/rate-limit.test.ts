/** The rate limiter (Authentication 2–3; Limits): budgets by prefix, fixed minute windows. */
import { test, expect } from '@playwright/test';
import { RateLimiter } from '../pipeline/rate-limit.ts';

test('a test key gets 100 requests per window, then refusals until the reset', () => {
  let now = Date.UTC(2026, 0, 1, 12, 0, 10);
  const limiter = new RateLimiter(() => now);
  for (let i = 1; i <= 100; i++) {
    const d = limiter.take('k', 'test');
    expect(d).toMatchObject({ allowed: true, limit: 100, remaining: 100 - i, reset: Date.UTC(2026, 0, 1, 12, 1, 0) / 1000 });
  }
  const refused = limiter.take('k', 'test');
  expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfter: 50 });
  now += 50_000;
  expect(limiter.take('k', 'test')).toMatchObject({ allowed: true, remaining: 99 });
});

test('live keys get 1,000, and each key has its own bucket', () => {
  const limiter = new RateLimiter(() => 0);
  expect(limiter.take('a', 'live')).toMatchObject({ limit: 1000, remaining: 999 });
  for (let i = 0; i < 100; i++) limiter.take('b', 'test');
  expect(limiter.take('b', 'test').allowed).toBe(false);
  expect(limiter.take('a', 'live')).toMatchObject({ allowed: true, remaining: 998 });
});

test('Retry-After is at least one second, even at the end of a window', () => {
  const limiter = new RateLimiter(() => 59_999);
  for (let i = 0; i < 100; i++) limiter.take('k', 'test');
  expect(limiter.take('k', 'test').retryAfter).toBe(1);
});

test('a key record is its own bucket: another record (even with the same id) has its own window; clear forgets both kinds', () => {
  const limiter = new RateLimiter(() => 0);
  const key = { id: 'key_1' };
  const again = { id: 'key_1' };
  for (let i = 0; i < 100; i++) limiter.take(key, 'test');
  expect(limiter.take(key, 'test').allowed).toBe(false);
  expect(limiter.take(again, 'test')).toMatchObject({ allowed: true, remaining: 99 });
  expect(limiter.take('key_1', 'test')).toMatchObject({ allowed: true, remaining: 99 });
  limiter.clear();
  expect(limiter.take(key, 'test')).toMatchObject({ allowed: true, remaining: 99 });
  expect(limiter.take('key_1', 'test')).toMatchObject({ allowed: true, remaining: 99 });
});

test('the time of a request can be given (the step passes the time authentication read)', () => {
  const limiter = new RateLimiter(() => { throw new Error('the clock must not be read'); });
  const first = limiter.take('k', 'live', 59_000);
  expect(first).toMatchObject({ remaining: 999, reset: 60, retryAfter: 1 });
  expect(limiter.take('k', 'live', 60_000)).toMatchObject({ remaining: 999, reset: 120 });
});
