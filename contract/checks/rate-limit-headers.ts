/**
 * `X-RateLimit-Limit`, `-Remaining` and `-Reset` on every successful authenticated response (RATE-008),
 * with consistent values: limit 100 or 1000, remaining 0..limit, reset a Unix time in seconds.
 */
import type { Check, Finding } from './types.ts';

export const rateLimitHeaders: Check = {
  name: 'rateLimitHeaders',
  requirement: 'RATE-008',
  run(x) {
    if (!x.authenticated || x.status < 200 || x.status >= 300) return [];
    const h = x.responseHeaders;
    const missing = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].filter((n) => h[n] === undefined);
    if (missing.length) return [{ message: `${x.status} response to ${x.method} ${x.path} lacks ${missing.join(', ')}`, at: missing.join(', ') }];
    const limit = Number(h['x-ratelimit-limit']);
    const remaining = Number(h['x-ratelimit-remaining']);
    const reset = Number(h['x-ratelimit-reset']);
    const problems: Finding[] = [];
    if (!Number.isInteger(remaining) || remaining < 0 || remaining > limit) problems.push({ message: `X-RateLimit-Remaining ${h['x-ratelimit-remaining']} is not an integer in 0..${limit}`, at: 'x-ratelimit-remaining' });
    if (!Number.isInteger(reset) || reset < 1_000_000_000 || reset > 100_000_000_000) problems.push({ message: `X-RateLimit-Reset ${h['x-ratelimit-reset']} is not a Unix time in seconds`, at: 'x-ratelimit-reset' });
    return problems;
  },
};
