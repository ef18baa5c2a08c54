/** The part of autocannon 8's API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    maxOverallRequests?: number;
    timeout?: number;
    requests?: Request[];
  }
  interface Histogram { average: number; mean: number; p50: number; p90: number; p99: number; total: number; max: number }
  interface Result {
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
