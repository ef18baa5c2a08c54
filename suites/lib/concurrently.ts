/**
 * Independent requests of one test sent at once (docs/design.md §5): against a remote target a test's
 * time is its round trips, and requests that neither depend on one another nor on their order (one per
 * operation, one per malformed input, reading back several records) need not wait for each other.
 * Never for what order is the point of: cursors, rate-limit windows, state transitions, idempotency
 * replays.
 *
 * The requests of a pool client still go through the worker's RateGovernor (suites/lib/pacing.ts), so
 * the run stays inside the keys' budget however many are in flight.
 */

/** Requests one test keeps in flight at most: a test is one of the run's concurrent tests (contract/concurrency.ts), this its share of a target's connections. */
export const IN_FLIGHT_PER_TEST = 6;

/**
 * `work(item, index)` for every item, at most `limit` at once, started in the items' order; resolves to
 * the results in the items' order once all are done. The first rejection rejects the whole once the
 * work already started has settled (no request is left running past the test), and no further item is
 * started after it.
 */
export async function concurrently<T, R>(items: readonly T[], work: (item: T, index: number) => Promise<R>, limit = IN_FLIGHT_PER_TEST): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrently: limit must be a positive integer, not ${limit}`);
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length && !failure) {
      const index = next++;
      try {
        results[index] = await work(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
  return results;
}
