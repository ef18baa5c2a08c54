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
