/**
 * Memory (docs/maintainers.md, Benchmarks): the mock's heap used after full garbage collection (and its RSS, for
 * information) after 10,000 requests and again after 1,000,000, under a steady mix of reads and errors
 * that store nothing: a meter, work-order pages 1 and 2, a meter list, an unknown meter (404), a bad
 * limit (400) and an unknown key (401). Every key the run needs is minted before the first
 * measurement, so the key table is the same size at both.
 */
import { KeyPool, seededLiveKeys } from './keys.ts';
import { runLoad, type LoadRequest } from './load.ts';
import { startMockServer } from './servers.ts';

export interface MemoryOptions {
  connections: number;
  /** Requests at the first and last measurements (10,000 and 1,000,000). */
  baseline: number;
  total: number;
  /** Measurements between the two, evenly spaced. */
  checkpoints: number;
  log: (line: string) => void;
}

export interface MemorySample { requests: number; heapUsedMB: number; rssMB: number }

export interface MemoryReport {
  samples: MemorySample[];
  /** Heap used after GC at `total` over heap used after GC at `baseline`. */
  heapRatio: number;
  rssRatio: number;
  statuses: Record<string, number>;
  problems: string[];
}

const UNKNOWN_KEY = `sk_live_${'0'.repeat(32)}`;
const MB = 1024 * 1024;

/** Runs the requests and measures the mock's memory along the way. */
export async function memory(options: MemoryOptions): Promise<MemoryReport> {
  const mock = await startMockServer({ exposeGc: true });
  try {
    const keys = new KeyPool(mock.url, await seededLiveKeys(mock.url));
    const [setupKey] = await keys.keysFor(10, 1);
    const auth = { authorization: `Bearer ${setupKey}` };
    const meterId = ((await (await fetch(`${mock.url}/v1/meters?limit=1`, { headers: auth })).json()) as { data: Array<{ id: string }> }).data[0]!.id;
    const page1 = (await (await fetch(`${mock.url}/v1/work-orders?limit=100`, { headers: auth })).json()) as { meta: { pagination: { cursor: string } } };
    const paths = [
      `/v1/meters/${meterId}`,
      '/v1/work-orders?limit=100',
      `/v1/work-orders?limit=100&cursor=${encodeURIComponent(page1.meta.pagination.cursor)}`,
      '/v1/meters?limit=50&direction=desc',
      '/v1/meters/mtr_unknown',
      '/v1/work-orders?limit=0',
    ];
    const bounds = [0, options.baseline];
    for (let i = 1; i <= options.checkpoints; i++) bounds.push(Math.round(options.baseline + ((options.total - options.baseline) * i) / (options.checkpoints + 1)));
    bounds.push(options.total);
    const lists: LoadRequest[][] = [];
    for (let i = 1; i < bounds.length; i++) {
      const amount = bounds[i]! - bounds[i - 1]!;
      const runKeys = await keys.keysFor(amount, options.connections, paths.length + 1);
      lists.push(runKeys.flatMap((key) => [
        ...paths.map((path) => ({ path, headers: { authorization: `Bearer ${key}` } })),
        { path: `/v1/meters/${meterId}`, headers: { authorization: `Bearer ${UNKNOWN_KEY}` } },
      ]));
    }
    options.log(`memory: ${keys.used} keys minted; running ${options.total.toLocaleString('en')} requests`);

    const samples: MemorySample[] = [];
    const statuses: Record<string, number> = {};
    const problems: string[] = [];
    for (let i = 0; i < lists.length; i++) {
      const amount = bounds[i + 1]! - bounds[i]!;
      const r = await runLoad(mock.url, lists[i]!, { connections: options.connections, amount });
      for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
      if (r.errors || r.timeouts) problems.push(`${r.errors} socket errors, ${r.timeouts} timeouts`);
      if (r.statuses['429'] || r.statuses['500']) problems.push(`unexpected statuses ${JSON.stringify(r.statuses)}`);
      const { memory: m, gc } = await mock.memory();
      if (!gc) problems.push('the mock was not started with --expose-gc');
      samples.push({ requests: bounds[i + 1]!, heapUsedMB: m.heapUsed / MB, rssMB: m.rss / MB });
      options.log(`memory: after ${bounds[i + 1]!.toLocaleString('en')} requests (${Math.round(r.rps)} req/s): heap used ${(m.heapUsed / MB).toFixed(1)} MB, RSS ${(m.rss / MB).toFixed(1)} MB`);
    }
    const first = samples[0]!;
    const last = samples[samples.length - 1]!;
    return { samples, heapRatio: last.heapUsedMB / first.heapUsedMB, rssRatio: last.rssMB / first.rssMB, statuses, problems };
  } finally {
    await mock.stop();
  }
}
