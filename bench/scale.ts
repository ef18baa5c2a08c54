/**
 * A large tenant (bench/README.md, part `scale`; docs/integrators.md, "Large tenants"): one mock in a
 * child process (`--expose-gc`, a record budget past the largest size) grows the main organization to
 * each size in turn (`POST /__mock/bulk/work-orders`, `POST /__mock/bulk/readings` on one meter), then:
 * - **memory per record**: heap used after full GCs, before and after each load, delta ÷ records added;
 *   again after every page of work orders has been listed once (with their list JSON cached);
 * - **a walk**: every page of `GET /v1/work-orders?limit=100` and of the meter's
 *   `GET /v1/meters/{id}/readings?limit=100`, each record seen once, the last page's cursor kept;
 * - **timed requests**, one at a time on one keep-alive connection, to the last byte, kinds interleaved:
 *   GET /v1/work-orders/{id} (random ids from the walk), work-order page 1, page N (the last page), a
 *   filtered list (`status=done`, Endpoints › Work orders (native)), readings page 1 and page N, and
 *   the parts section of a seeded work order with rows (its stock's competing demands). Each
 *   work-order list request follows a PATCH of one work order's title (untimed), so the mock's page cache
 *   (mock/paging/page-cache.ts) never answers it: the figure is what a page costs to build.
 * Every size gets 30 untimed rounds first. The rate limit stays on: every key serves at most 900
 * requests (keys.ts).
 */
import { Agent } from 'node:http';
import { controlHeaders } from './control.ts';
import { KeyPool, seededLiveKeys } from './keys.ts';
import { median } from './load.ts';
import { startMockServer, type MockServer } from './servers.ts';
import { timedGet } from './walk.ts';

export interface ScaleOptions {
  /** Sizes in records (work orders, and readings of one meter), ascending. */
  sizes: number[];
  /** Timed requests of each kind at each size. */
  samples: number;
  log: (line: string) => void;
}

/** Median milliseconds of each timed kind at one size. */
export interface ScaleTimings { byId: number; firstPage: number; lastPage: number; filtered: number; readingsFirst: number; readingsLast: number; partsSection: number }

export interface ScalePoint {
  size: number;
  /** Heap bytes per work order loaded (after full GCs), and with every work order's list JSON cached by a walk. */
  bytesPerWorkOrder: number;
  bytesPerWorkOrderWalked: number;
  bytesPerReading: number;
  /** Seconds of the bulk loads and of the two walks. */
  loadSeconds: number;
  walkSeconds: number;
  /** Rows of the filtered list (`total_count` of `status=done`). */
  filteredCount: number;
  ms: ScaleTimings;
}

export interface ScaleReport { points: ScalePoint[]; problems: string[] }

interface Page { data: Array<{ id: string }>; meta: { pagination: { has_more: boolean; cursor: string; total_count: number } } }

/** Requests one key serves (its budget is 1,000 a minute, counted over the life of the mock). */
const PER_KEY = 900;
const BULK_CALL = 100_000;
/** Untimed rounds of every kind before the timed ones at each size (the first size would pay the JIT's warm-up). */
const WARM_UP = 30;

/** A deterministic pseudo-random index below `n` (mulberry32 on a fixed seed). */
function randomIndexes(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Loads `count` records through a bulk control route, 100,000 a call. */
async function bulk(mock: MockServer, route: string, count: number, extra: Record<string, string> = {}): Promise<void> {
  for (let left = count; left > 0; left -= BULK_CALL) {
    const r = await fetch(`${mock.url}/__mock/bulk/${route}`, { method: 'POST', headers: controlHeaders(), body: JSON.stringify({ count: Math.min(BULK_CALL, left), ...extra }) });
    if (r.status !== 201) throw new Error(`bulk ${route} answered ${r.status}: ${await r.text()}`);
  }
}

/** Grows one organization through `options.sizes` and measures each size (see the module's docstring). */
export async function scale(options: ScaleOptions): Promise<ScaleReport> {
  const largest = Math.max(...options.sizes);
  process.env.MMS_BENCH_MAX_RECORDS = String(2 * largest + 100_000);
  const mock = await startMockServer({ exposeGc: true, name: 'mock (scale)' });
  // A new connection after every pause (a load, a full GC): the mock closes a keep-alive connection idle
  // for 5 s, and a request sent as it closes would fail with ECONNRESET.
  let agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const heapUsed = async (): Promise<number> => {
    const used = (await mock.memory()).memory.heapUsed;
    agent.destroy();
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
    return used;
  };
  const problems: string[] = [];
  const points: ScalePoint[] = [];
  try {
    const pool = new KeyPool(mock.url, await seededLiveKeys(mock.url));
    let keys: string[] = [];
    let used = 0;
    const key = () => keys[Math.floor(used++ / PER_KEY)]!;
    const call = async (path: string, method = 'GET', body?: string) => {
      const r = await timedGet(agent, `${mock.url}${path}`, key(), method, body);
      if (r.status !== 200) problems.push(`${method} ${path.slice(0, 80)} answered ${r.status}: ${r.body.slice(0, 200)}`);
      return r;
    };
    const reserve = async (requests: number) => {
      keys = await pool.unused(Math.ceil(requests / PER_KEY) + 1);
      used = 0;
    };

    await reserve(120);
    const meterId = ((JSON.parse((await call('/v1/meters?limit=1')).body) as Page).data[0]!).id;
    const visible = async () => (JSON.parse((await call('/v1/work-orders?limit=1')).body) as Page).meta.pagination.total_count;
    const readingCount = async () => (JSON.parse((await call(`/v1/meters/${meterId}/readings?limit=1`)).body) as Page).meta.pagination.total_count;
    const random = randomIndexes(20240917);
    // A seeded work order whose parts section has rows: its read weighs the other work orders' demands.
    const seeded = (JSON.parse((await call('/v1/work-orders?limit=100')).body) as Page).data.map((w) => w.id);
    let withParts = seeded[0]!;
    for (const id of seeded) {
      if (((JSON.parse((await call(`/v1/work-orders/${id}/parts`)).body) as { items?: unknown[] }).items ?? []).length === 0) continue;
      withParts = id;
      break;
    }

    for (const size of [...options.sizes].sort((a, b) => a - b)) {
      await reserve(2 * Math.ceil(size / 100) + 12 * (options.samples + WARM_UP) + 20);
      const loadStarted = performance.now();
      const heapBefore = await heapUsed();
      const addWorkOrders = size - (await visible());
      if (addWorkOrders > 0) await bulk(mock, 'work-orders', addWorkOrders);
      const heapWorkOrders = await heapUsed();
      const addReadings = size - (await readingCount());
      if (addReadings > 0) await bulk(mock, 'readings', addReadings, { meterId });
      const heapReadings = await heapUsed();
      const loadSeconds = (performance.now() - loadStarted) / 1000;
      options.log(`scale ${size.toLocaleString('en')}: loaded in ${loadSeconds.toFixed(1)} s; walking every page`);

      const walkStarted = performance.now();
      const walkAll = async (path: string): Promise<{ ids: string[]; lastCursor: string }> => {
        const ids: string[] = [];
        let cursor: string | undefined;
        let lastCursor = '';
        for (;;) {
          const r = await call(`${path}?limit=100${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
          if (r.status !== 200) break;
          const page = JSON.parse(r.body) as Page;
          for (const row of page.data) ids.push(row.id);
          if (!page.meta.pagination.has_more) break;
          lastCursor = cursor = page.meta.pagination.cursor;
        }
        if (new Set(ids).size !== size || ids.length !== size) problems.push(`${size}: the walk of ${path} saw ${ids.length} rows (${new Set(ids).size} distinct), expected ${size}`);
        return { ids, lastCursor };
      };
      const workOrders = await walkAll('/v1/work-orders');
      const heapWalked = await heapUsed();
      const readings = await walkAll(`/v1/meters/${meterId}/readings`);
      const walkSeconds = (performance.now() - walkStarted) / 1000;

      const invalidate = (i: number) => call(`/v1/work-orders/${workOrders.ids[workOrders.ids.length >> 1]}`, 'PATCH', JSON.stringify({ title: `Scale ${i % 2}` }));
      const lastWorkOrders = `&cursor=${encodeURIComponent(workOrders.lastCursor)}`;
      const lastReadings = `&cursor=${encodeURIComponent(readings.lastCursor)}`;
      let filteredCount = 0;
      const kinds: Array<[keyof ScaleTimings, (i: number) => Promise<number>]> = [
        ['byId', async () => (await call(`/v1/work-orders/${workOrders.ids[random(workOrders.ids.length)]}`)).ms],
        ['firstPage', async (i) => (await invalidate(i), (await call('/v1/work-orders?limit=100')).ms)],
        ['lastPage', async (i) => (await invalidate(i), (await call(`/v1/work-orders?limit=100${lastWorkOrders}`)).ms)],
        ['filtered', async (i) => {
          await invalidate(i);
          const r = await call('/v1/work-orders?limit=100&status=done');
          if (r.status === 200) filteredCount = (JSON.parse(r.body) as Page).meta.pagination.total_count;
          return r.ms;
        }],
        ['readingsFirst', async () => (await call(`/v1/meters/${meterId}/readings?limit=100`)).ms],
        ['readingsLast', async () => (await call(`/v1/meters/${meterId}/readings?limit=100${lastReadings}`)).ms],
        ['partsSection', async () => (await call(`/v1/work-orders/${withParts}/parts`)).ms],
      ];
      const times = Object.fromEntries(kinds.map(([name]) => [name, [] as number[]])) as Record<keyof ScaleTimings, number[]>;
      for (let i = 0; i < WARM_UP; i++) for (const [, run] of kinds) await run(i);
      for (let i = 0; i < options.samples; i++) {
        for (let k = 0; k < kinds.length; k++) {
          const [name, run] = kinds[(i + k) % kinds.length]!;
          times[name].push(await run(i));
        }
      }
      const ms = Object.fromEntries(Object.entries(times).map(([name, t]) => [name, median(t)])) as unknown as ScaleTimings;
      const point: ScalePoint = {
        size,
        bytesPerWorkOrder: addWorkOrders > 0 ? (heapWorkOrders - heapBefore) / addWorkOrders : NaN,
        bytesPerWorkOrderWalked: addWorkOrders > 0 ? (heapWalked - heapReadings + heapWorkOrders - heapBefore) / addWorkOrders : NaN,
        bytesPerReading: addReadings > 0 ? (heapReadings - heapWorkOrders) / addReadings : NaN,
        loadSeconds,
        walkSeconds,
        filteredCount,
        ms,
      };
      points.push(point);
      options.log(`scale ${size.toLocaleString('en')}: ${Math.round(point.bytesPerWorkOrder)} B per work order (${Math.round(point.bytesPerWorkOrderWalked)} B walked), ${Math.round(point.bytesPerReading)} B per reading; walk ${walkSeconds.toFixed(1)} s; p50 ms ${Object.entries(ms).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
    }
    return { points, problems };
  } finally {
    agent.destroy();
    await mock.stop();
  }
}

/**
 * The part's lines of the bench table: the largest size against the smallest (GET by id and page N
 * within 1.5×), the heap per work order at the largest size (≤ 1 KB), and the rest stated.
 */
export function scaleTargets(report: ScaleReport): Array<{ name: string; measured: string; target: string; met: boolean }> {
  const small = report.points[0];
  const large = report.points[report.points.length - 1];
  if (!small || !large) return [];
  const n = (p: ScalePoint) => p.size.toLocaleString('en');
  const ratio = (kind: keyof ScaleTimings) => large.ms[kind] / small.ms[kind];
  const vs = (kind: keyof ScaleTimings) => `${large.ms[kind].toFixed(2)} ÷ ${small.ms[kind].toFixed(2)} ms = ${ratio(kind).toFixed(2)}×`;
  const all = (kind: keyof ScaleTimings) => report.points.map((p) => `${n(p)}: ${p.ms[kind].toFixed(2)}`).join(', ');
  const bytes = (f: (p: ScalePoint) => number) => report.points.map((p) => `${n(p)}: ${Math.round(f(p))} B`).join(', ');
  return [
    { name: `GET /v1/work-orders/{id}, ${n(large)} ÷ ${n(small)} work orders (p50)`, measured: vs('byId'), target: '≤ 1.5×', met: ratio('byId') <= 1.5 },
    { name: `work orders, last page (limit=100, page cache bypassed), ${n(large)} ÷ ${n(small)} (p50)`, measured: vs('lastPage'), target: '≤ 1.5×', met: ratio('lastPage') <= 1.5 },
    { name: `heap per work order (after full GC), at ${n(large)}`, measured: `${Math.round(large.bytesPerWorkOrder)} B (${bytes((p) => p.bytesPerWorkOrder)}; after a walk, list JSON cached: ${bytes((p) => p.bytesPerWorkOrderWalked)})`, target: '≤ 1024 B', met: large.bytesPerWorkOrder <= 1024 },
    { name: 'work orders, page 1 (limit=100, page cache bypassed), p50 ms', measured: all('firstPage'), target: 'stated', met: true },
    { name: 'work orders, status=done page 1 (limit=100, page cache bypassed), p50 ms', measured: `${all('filtered')} (${large.filteredCount.toLocaleString('en')} rows at ${n(large)})`, target: 'stated', met: true },
    { name: 'meter readings, page 1 and last page (limit=100), p50 ms', measured: report.points.map((p) => `${n(p)}: ${p.ms.readingsFirst.toFixed(2)} / ${p.ms.readingsLast.toFixed(2)}`).join(', '), target: 'stated', met: true },
    { name: 'GET /v1/work-orders/{id}/parts, a section with rows, p50 ms', measured: all('partsSection'), target: 'stated', met: true },
    { name: 'heap per meter reading (after full GC)', measured: bytes((p) => p.bytesPerReading), target: 'stated', met: true },
  ];
}
