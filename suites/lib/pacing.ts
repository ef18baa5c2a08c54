/**
 * Staying inside the target's rate budget (docs/design.md §5): the suite reads `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` after each response, spreads requests over a pool of keys, waits for the reset
 * when every key of the pool is spent, and retries a 429 after `Retry-After`.
 */

interface Budget { remaining: number; resetAt: number }

/** Budgets per key, shared by every client of a worker. */
export class RateGovernor {
  private readonly budgets = new Map<string, Budget>();
  private cursor = 0;

  /** Keeps this many requests of each key in reserve for other workers. */
  constructor(private readonly reserve = 5) {}

  /** Records what a response said about a key's budget. */
  observe(key: string, headers: Record<string, string>): void {
    const remaining = Number(headers['x-ratelimit-remaining']);
    const reset = Number(headers['x-ratelimit-reset']);
    if (Number.isFinite(remaining) && Number.isFinite(reset)) this.budgets.set(key, { remaining, resetAt: reset * 1000 });
  }

  /** Marks a key spent until `retryAfterSeconds` from now (after a 429). */
  spent(key: string, retryAfterSeconds: number): void {
    this.budgets.set(key, { remaining: 0, resetAt: Date.now() + retryAfterSeconds * 1000 });
  }

  /**
   * The key of `pool` to use next, and how long to wait first (ms). Rotates through the pool so that
   * workers starting at different offsets share the load.
   */
  choose(pool: readonly string[], offset: number): { key: string; waitMs: number } {
    const now = Date.now();
    let soonest = { key: pool[0]!, at: Infinity };
    for (let i = 0; i < pool.length; i++) {
      const key = pool[(offset + this.cursor + i) % pool.length]!;
      const b = this.budgets.get(key);
      if (!b || b.remaining > this.reserve || b.resetAt <= now) {
        this.cursor = (this.cursor + 1) % Math.max(1, pool.length);
        return { key, waitMs: 0 };
      }
      if (b.resetAt < soonest.at) soonest = { key, at: b.resetAt };
    }
    return { key: soonest.key, waitMs: Math.min(61_000, Math.max(0, soonest.at - now) + 50) };
  }
}
