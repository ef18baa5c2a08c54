/**
 * Rate-limit decisions from a shared counter (pipeline/rate-limit.ts's rules: one fixed one-minute window
 * per key, aligned to the clock minute; Authentication 2–3, Limits): the persistent stores count in
 * their database, so windows survive restarts and replicas share one budget.
 */
import type { RateDecision } from '../http/send.ts';

/** The start (epoch ms) of the window holding `now`. */
export function windowStart(now: number): number {
  return now - (now % 60_000);
}

/**
 * The decision once a request took slot number `used` (1-based; counted also when refused) of a window
 * with budget `limit`, at `now` (epoch ms).
 */
export function rateDecision(used: number, limit: number, now: number): RateDecision {
  const end = windowStart(now) + 60_000;
  const retryAfter = Math.max(1, Math.ceil((end - now) / 1000));
  return { allowed: used <= limit, limit, remaining: Math.max(0, limit - used), reset: end / 1000, retryAfter };
}
