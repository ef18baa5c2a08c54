/**
 * How many tests run at once (docs/vendors.md, "Concurrency against a remote target"): each runs in a
 * Playwright worker process, so the run's concurrency is its number of workers.
 *
 * - The embedded mock answers in the CLI's process: every worker's time is CPU, so one worker per core
 *   (at least 2, at most 4; docs/history.md, "The suite's fixed costs").
 * - A remote target's answers are mostly waiting: a test in flight sends about one request per round
 *   trip, so the concurrency the target allows is its rate budget (Limits: 1,000 requests a minute per
 *   `sk_live_` key, 100 per `sk_test_` key; Authentication 2) over what one test in flight asks of it,
 *   `REQUESTS_PER_MINUTE_PER_TEST`. The profile's `concurrency`, or `run --concurrency`, overrides it.
 */

/**
 * Requests a minute per key, by prefix (Authentication 2: "prefix `sk_live_` (1,000 requests per
 * minute) or `sk_test_` (100 requests per minute)"): the mock's rate limiter (mock/pipeline/rate-limit.ts) and a
 * remote target's default concurrency read these.
 */
export const KEY_RATE_LIMITS = { live: 1000, test: 100 } as const;

/** Requests a minute of a key by its prefix (Authentication 2; Limits). */
export function keyRequestsPerMinute(key: string): number {
  return key.startsWith('sk_test_') ? KEY_RATE_LIMITS.test : KEY_RATE_LIMITS.live;
}

/**
 * What one test in flight asks of a remote target's budget, in requests a minute: one request per
 * round trip of about 120 ms (a target across the internet; the bench's `remote` part adds 100 ms).
 */
export const REQUESTS_PER_MINUTE_PER_TEST = 500;

/** Bounds of a remote target's default concurrency: today's default at least, and at most what this kind of host holds (a worker is a Node process of about 200 MB). */
export const REMOTE_CONCURRENCY = { min: 2, max: 16 } as const;

/** Where a run's concurrency came from, and its value. */
export interface Concurrency {
  tests: number;
  /** `option` (`--concurrency`/`--workers`), `profile` (its `concurrency`), `budget` (the live keys' rate budget), `cores` (the embedded mock). */
  from: 'option' | 'profile' | 'budget' | 'cores';
}

/**
 * The run's concurrency: `option` when given, else the profile's, else, against a remote target (not
 * `embedded`), its live keys' budget ÷ REQUESTS_PER_MINUTE_PER_TEST within REMOTE_CONCURRENCY, else
 * one test per core (`cores`, 2 to 4). `liveKeys` are the profile's resolved `keys.live`.
 */
export function runConcurrency(o: { option?: number; profile?: number; embedded: boolean; liveKeys?: readonly string[]; cores: number }): Concurrency {
  if (o.option !== undefined) return { tests: o.option, from: 'option' };
  if (o.profile !== undefined) return { tests: o.profile, from: 'profile' };
  if (o.embedded || !o.liveKeys?.length) return { tests: Math.max(2, Math.min(4, o.cores)), from: 'cores' };
  const budget = o.liveKeys.reduce((sum, key) => sum + keyRequestsPerMinute(key), 0);
  const tests = Math.floor(budget / REQUESTS_PER_MINUTE_PER_TEST);
  return { tests: Math.max(REMOTE_CONCURRENCY.min, Math.min(REMOTE_CONCURRENCY.max, tests)), from: 'budget' };
}
