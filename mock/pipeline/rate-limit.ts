/**
 * Stage rateLimit (docs/design.md §4, layer 3): the rate limiter (Authentication 2–3; Limits). Each key
 * has a fixed one-minute window, aligned to the clock minute (inferred); `sk_live_` keys get 1,000
 * requests per window and `sk_test_` keys 100. Every authenticated request counts.
 */
import { KEY_RATE_LIMITS } from '../../contract/concurrency.ts';
import { ProblemError } from '../http/problem.ts';
import type { RateDecision } from '../http/send.ts';
import type { ApiKey } from '../store/types.ts';
import type { Exchange } from './exchange.ts';
import type { Step } from './stages.ts';

export const LIMITS = KEY_RATE_LIMITS;

/** The start (epoch ms) of the window holding `now`. */
export function windowStart(now: number): number {
  return now - (now % 60_000);
}

/**
 * The decision once a request took slot number `used` (1-based; a slot past the limit is a refusal) of a
 * window with budget `limit`, at `now` (epoch ms). The persistent stores count slots in their database
 * (windows survive restarts, replicas share one budget) and decide with this too.
 */
export function rateDecision(used: number, limit: number, now: number): RateDecision {
  const end = windowStart(now) + 60_000;
  const retryAfter = Math.max(1, Math.ceil((end - now) / 1000));
  return { allowed: used <= limit, limit, remaining: Math.max(0, limit - used), reset: end / 1000, retryAfter };
}

interface Window {
  start: number;
  used: number;
}

export class RateLimiter {
  /** Windows of buckets that are objects (a key record: the default bucket), forgotten with the object. */
  private byObject = new WeakMap<object, Window>();
  /** Windows of buckets named by a string (the self-test's mutants, the unit tests). */
  private readonly byName = new Map<string, Window>();

  /** `limits`: budgets per key prefix replacing LIMITS (the self-test's mutants only). */
  constructor(
    private readonly now: () => number,
    private readonly limits: Record<'live' | 'test', number> = LIMITS,
  ) {}

  /**
   * Counts one request at `now` (ms; default the limiter's clock) against the budget of `bucket`'s
   * window, per the key's prefix. A bucket is the key record itself (default) or a name.
   */
  take(bucket: object | string, prefix: 'live' | 'test', now = this.now()): RateDecision {
    const start = windowStart(now);
    let w = typeof bucket === 'string' ? this.byName.get(bucket) : this.byObject.get(bucket);
    if (!w || w.start !== start) {
      w = { start, used: 0 };
      if (typeof bucket === 'string') this.byName.set(bucket, w);
      else this.byObject.set(bucket, w);
    }
    const limit = this.limits[prefix];
    // A refused request takes no slot here (the window's count stops at the limit).
    return rateDecision(w.used < limit ? ++w.used : limit + 1, limit, now);
  }

  /** Forgets every window (control API reset). */
  clear(): void {
    this.byObject = new WeakMap();
    this.byName.clear();
  }
}

/**
 * The rateLimit step: one request against the key's budget, at the time authentication read (`ex.now`),
 * 429 with `Retry-After` when it is spent. The bucket is the key record (its window is found by the
 * object, without reading its id); `bucket` names a key's bucket instead (the self-test's mutants only).
 */
export function rateLimitStep(limiter: RateLimiter, bucket?: (key: ApiKey) => string): Step {
  return (ex: Exchange) => {
    const key = ex.key;
    const rate = (ex.rate = limiter.take(bucket ? bucket(key) : key, key.prefix, ex.now));
    if (!rate.allowed) throw rateLimited(rate);
  };
}

/** The 429 of a refused decision, with `Retry-After` (Authentication 3). */
export function rateLimited(rate: RateDecision): ProblemError {
  return new ProblemError(429, 'rate_limited', `This key spent its one-minute budget of ${rate.limit} requests.`, {}, { 'Retry-After': String(rate.retryAfter) });
}
