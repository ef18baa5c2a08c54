/**
 * Load generation: autocannon (in the benchmark's own process) against one server, with a list of
 * requests every connection cycles through (one entry per key, see keys.ts).
 */
import autocannon from 'autocannon';

export interface LoadRequest {
  method?: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  /** Responses per second over the run's actual duration. */
  rps: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  responses: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  statuses: Record<string, number>;
}

export interface LoadOptions {
  connections: number;
  /** Seconds; or `amount` requests. */
  duration?: number;
  amount?: number;
  /** Stops the run after this many requests (a guard of the key budget). */
  maxRequests?: number;
}

/** Runs autocannon against `url` and summarises the run. */
export async function runLoad(url: string, requests: LoadRequest[], options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections,
    pipelining: 1,
    timeout: 10,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 10 }),
    ...(options.maxRequests !== undefined ? { maxOverallRequests: options.maxRequests } : {}),
    requests: requests.map((r) => ({ method: r.method ?? 'GET', path: r.path, headers: r.headers, ...(r.body !== undefined && { body: r.body }) })),
  });
  const statuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count;
  const responses = Object.values(statuses).reduce((n, c) => n + c, 0);
  return {
    rps: responses / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    responses,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
    statuses,
  };
}

/** The same request once per key. */
export function perKey(keys: string[], path: string, extra: Record<string, string> = {}): LoadRequest[] {
  return keys.map((key) => ({ path, headers: { authorization: `Bearer ${key}`, ...extra } }));
}

/** The median of some numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
