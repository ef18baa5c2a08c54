/**
 * Deep pages (docs/maintainers.md, Benchmarks): with 100,000 work orders loaded (`POST /__mock/bulk/work-orders`),
 * walk every page of GET /v1/work-orders?limit=100, then time page 1 and page 1000 alternately, one
 * request at a time over one keep-alive connection, and compare their medians (client-side time to the
 * last byte).
 */
import { controlHeaders } from './control.ts';
import { Agent, request } from 'node:http';
import { KeyPool, seededLiveKeys } from './keys.ts';
import { median } from './load.ts';
import { startMockServer } from './servers.ts';

export interface WalkOptions {
  workOrders: number;
  /** Timed requests of each page, alternating. */
  samples: number;
  log: (line: string) => void;
}

export interface WalkReport {
  workOrders: number;
  pages: number;
  walkSeconds: number;
  /** Median milliseconds of page 1 and of the last page (page 1000 for 100,000 work orders). */
  firstPageMs: number;
  lastPageMs: number;
  ratio: number;
  problems: string[];
}

interface Page { data: Array<{ id: string }>; meta: { pagination: { has_more: boolean; cursor: string; total_count: number } } }

/**
 * A request over one keep-alive connection (GET unless `method` says otherwise, `body` sent as JSON):
 * status, body and milliseconds to the last byte. Shared with bench/scale.ts.
 */
export function timedGet(agent: Agent, url: string, key: string, method = 'GET', body?: string): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const headers = body === undefined ? { authorization: `Bearer ${key}` } : { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    request(url, { agent, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
      res.on('error', fail);
    }).on('error', fail).end(body);
  });
}

/** Loads the work orders, walks them and times the first and last pages. */
export async function walk(options: WalkOptions): Promise<WalkReport> {
  const mock = await startMockServer();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const problems: string[] = [];
    const pagesExpected = Math.ceil(options.workOrders / 100);
    const keys = new KeyPool(mock.url, await seededLiveKeys(mock.url));
    const pool = await keys.keysFor(pagesExpected + 2 * options.samples + 10, 1);
    let used = 0;
    const key = () => pool[Math.floor(used++ / 900)]!;
    const get = (query: string) => timedGet(agent, `${mock.url}/v1/work-orders?limit=100${query}`, key());

    const seeded = (JSON.parse((await timedGet(agent, `${mock.url}/v1/work-orders?limit=1`, key())).body) as Page).meta.pagination.total_count;
    const load = await fetch(`${mock.url}/__mock/bulk/work-orders`, { method: 'POST', headers: controlHeaders(), body: JSON.stringify({ count: options.workOrders - seeded }) });
    if (load.status !== 201) throw new Error(`bulk load answered ${load.status}: ${await load.text()}`);
    options.log(`walk: ${options.workOrders} work orders loaded; walking every page`);

    const started = performance.now();
    const seen = new Set<string>();
    let cursor: string | undefined;
    let lastCursor = '';
    let pages = 0;
    for (;;) {
      const r = await get(cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`);
      if (r.status !== 200) throw new Error(`page ${pages + 1} answered ${r.status}: ${r.body}`);
      const page = JSON.parse(r.body) as Page;
      pages++;
      for (const row of page.data) seen.add(row.id);
      if (!page.meta.pagination.has_more) break;
      lastCursor = page.meta.pagination.cursor;
      cursor = lastCursor;
    }
    const walkSeconds = (performance.now() - started) / 1000;
    if (seen.size !== options.workOrders) problems.push(`the walk saw ${seen.size} work orders, expected ${options.workOrders}`);
    if (pages !== pagesExpected) problems.push(`the walk took ${pages} pages, expected ${pagesExpected}`);

    options.log(`walk: ${pages} pages in ${walkSeconds.toFixed(1)} s; timing page 1 and page ${pages}, ${options.samples} times each`);
    const first: number[] = [];
    const last: number[] = [];
    const lastQuery = `&cursor=${encodeURIComponent(lastCursor)}`;
    for (let i = 0; i < options.samples; i++) {
      for (const [query, into] of (i % 2 ? [['', first], [lastQuery, last]] : [[lastQuery, last], ['', first]]) as Array<[string, number[]]>) {
        const r = await get(query);
        if (r.status !== 200) problems.push(`a timed page answered ${r.status}`);
        into.push(r.ms);
      }
    }
    const firstPageMs = median(first);
    const lastPageMs = median(last);
    return { workOrders: options.workOrders, pages, walkSeconds, firstPageMs, lastPageMs, ratio: lastPageMs / firstPageMs, problems };
  } finally {
    agent.destroy();
    await mock.stop();
  }
}
