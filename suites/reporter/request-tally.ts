/**
 * Requests of a run grouped by family or file: the sum of each test's `requests` (its evidence
 * attachment, contract/exchange.ts). The one tally behind the report's `run.requestsByFamily`
 * (verdicts.ts) and the bench's requests by file (bench/suite.ts), so the two never count differently.
 */

/** One group's tests and the requests they sent. */
export interface RequestTally { tests: number; requests: number }

/**
 * Tallies `rows` by `keyOf` (a family, a file), most requests first (ties by key), as `{ [name]: key,
 * tests, requests }`.
 */
export function tallyRequests<R, K extends string>(rows: readonly R[], keyOf: (row: R) => string, requestsOf: (row: R) => number, name: K): Array<Record<K, string> & RequestTally> {
  const by = new Map<string, RequestTally>();
  for (const row of rows) {
    const t = by.get(keyOf(row)) ?? { tests: 0, requests: 0 };
    t.tests++;
    t.requests += requestsOf(row);
    by.set(keyOf(row), t);
  }
  return [...by]
    .sort((a, b) => b[1].requests - a[1].requests || a[0].localeCompare(b[0]))
    .map(([key, t]) => ({ [name]: key, ...t }) as Record<K, string> & RequestTally);
}

/**
 * The family a test's requests count under: that of its first family-shaped tag — a requirement
 * (`@SCOPE-002` → SCOPE) or a part of the suite named like a family (`@GEN`, which every generative test
 * carries first, so the generative project's share shows as one line); `(none)` for a test with neither
 * (the setup test).
 */
export function requestFamilyOf(tags: readonly string[]): string {
  const tag = tags.find((t) => /^@?[A-Z]+(-\d{3})?$/.test(t));
  return tag ? tag.replace(/^@/, '').split('-')[0]! : '(none)';
}
