/**
 * Layer 3: the rate limiter (Authentication 2–3; Limits). Each key has a fixed one-minute window,
 * aligned to the clock minute (inferred); `sk_live_` keys get 1,000 requests per window and `sk_test_`
 * keys 100. Every authenticated request counts.
 */
export const LIMITS = { live: 1000, test: 100 } as const;

/** The outcome of one request against a key's budget. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time (seconds) at which the window resets. */
  reset: number;
  /** Seconds until the reset (at least 1); meaningful when refused. */
  retryAfter: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  /** `limits`: budgets per key prefix replacing LIMITS (the self-test's mutants only). */
  constructor(
    private readonly now: () => number,
    private readonly limits: Record<'live' | 'test', number> = LIMITS,
  ) {}

  /** Counts one request against the budget of `keyId`'s window (`keyId` names the bucket), per its prefix. */
  take(keyId: string, prefix: 'live' | 'test'): RateDecision {
    const now = this.now();
    const start = now - (now % 60_000);
    let w = this.windows.get(keyId);
    if (!w || w.start !== start) {
      w = { start, used: 0 };
      this.windows.set(keyId, w);
    }
    const limit = this.limits[prefix];
    const end = start + 60_000;
    const retryAfter = Math.max(1, Math.ceil((end - now) / 1000));
    if (w.used >= limit) return { allowed: false, limit, remaining: 0, reset: end / 1000, retryAfter };
    w.used++;
    return { allowed: true, limit, remaining: limit - w.used, reset: end / 1000, retryAfter };
  }

  /** Forgets every window (control API reset). */
  clear(): void {
    this.windows.clear();
  }
}
