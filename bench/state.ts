/**
 * The cost of the state stores (docs/integrators.md, "State and replicas"): throughput of a GET by id
 * (`GET /v1/meters/{id}`) and of a create (`POST /v1/meters`, at a seeded location) against three mocks in child processes,
 * on the memory store, on the file store (a fresh SQLite file) and on PostgreSQL (a throwaway cluster,
 * tools/lib/postgres.ts), as ratios to the memory store within one run. Rounds are interleaved, the
 * server order rotating from round to round, and medians are compared. Keys come from each mock's own
 * key pool (keys.ts): the rate limit stays on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgres, type Postgres } from '../tools/lib/postgres.ts';
import { KeyPool, seededLiveKeys } from './keys.ts';
import { median, runLoad, type LoadRequest, type LoadResult } from './load.ts';
import { startMockServer, type MockServer } from './servers.ts';

export interface StateOptions {
  connections: number;
  duration: number;
  warmup: number;
  rounds: number;
  log: (line: string) => void;
}

export interface StateStoreFigures { rps: number; rounds: number[]; p50: number; p99: number; vsMemory: number }

export interface StateReport {
  endpoint: string;
  stores: Record<string, StateStoreFigures>;
  problems: string[];
}

interface Contender { server: MockServer; keys: KeyPool; plan: { rps: number } }

/** Runs the comparison; one report per endpoint, stores by name (memory, file, postgres). */
export async function stateCost(options: StateOptions): Promise<StateReport[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-state-'));
  let pg: Postgres | undefined;
  const contenders: Contender[] = [];
  try {
    pg = await startPostgres();
    for (const [name, state] of [['memory', undefined], ['file', join(dir, 'state.db')], ['postgres', pg.url]] as const) {
      const server = await startMockServer({ state, name });
      // Planned for 40,000 requests a second from the start (as throughput.ts): a lower first plan capped the
      // warm-up at a fraction of a second, and the first timed round was warm-up for every store.
      contenders.push({ server, keys: new KeyPool(server.url, await seededLiveKeys(server.url)), plan: { rps: 40_000 } });
    }
    const [setupKey] = await contenders[0]!.keys.keysFor(10, 1);
    const first = async (path: string) => ((await (await fetch(`${contenders[0]!.server.url}${path}`, { headers: { authorization: `Bearer ${setupKey}` } })).json()) as { data: Array<{ id: string }> }).data[0]!.id;
    // Every mock has the same seed, so the same ids.
    const meterId = await first('/v1/meters?limit=1');
    const locationId = await first('/v1/locations?limit=1');
    const create = JSON.stringify({ name: 'Bench meter', location_id: locationId });
    const endpoints: Array<{ endpoint: string; request: (key: string) => LoadRequest; status: string }> = [
      { endpoint: 'GET /v1/meters/{id}', status: '200', request: (key) => ({ path: `/v1/meters/${meterId}`, headers: { authorization: `Bearer ${key}` } }) },
      { endpoint: 'POST /v1/meters', status: '201', request: (key) => ({ method: 'POST', path: '/v1/meters', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: create }) },
    ];
    const reports: StateReport[] = [];
    for (const e of endpoints) {
      const measure = async (c: Contender, seconds: number): Promise<LoadResult> => {
        const planned = Math.ceil(c.plan.rps * seconds);
        const keys = await c.keys.keysFor(planned, options.connections);
        const result = await runLoad(c.server.url, keys.map(e.request), { connections: options.connections, duration: seconds, maxRequests: planned });
        c.plan.rps = Math.max(c.plan.rps, 2 * result.rps);
        return result;
      };
      const runs = new Map<string, LoadResult[]>(contenders.map((c) => [c.server.name, []]));
      const problems: string[] = [];
      for (const c of contenders) {
        options.log(`${e.endpoint}: warming up ${c.server.name} (${options.warmup} s)`);
        await measure(c, options.warmup);
      }
      for (let round = 0; round < options.rounds; round++) {
        for (const c of contenders.map((_, i) => contenders[(i + round) % contenders.length]!)) {
          const r = await measure(c, options.duration);
          runs.get(c.server.name)!.push(r);
          options.log(`${e.endpoint}: round ${round + 1}/${options.rounds} ${c.server.name.padEnd(8)} ${Math.round(r.rps).toString().padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms`);
          const wrong = r.responses - (r.statuses[e.status] ?? 0);
          if (wrong || r.errors || r.timeouts) problems.push(`${c.server.name} round ${round + 1}: ${wrong} answers other than ${e.status} (${JSON.stringify(r.statuses)}), ${r.errors} errors, ${r.timeouts} timeouts`);
        }
      }
      const memoryRps = median(runs.get('memory')!.map((r) => r.rps));
      const stores = Object.fromEntries([...runs].map(([name, list]) => {
        const rps = median(list.map((r) => r.rps));
        return [name, { rps, rounds: list.map((r) => Math.round(r.rps)), p50: median(list.map((r) => r.p50)), p99: median(list.map((r) => r.p99)), vsMemory: rps / memoryRps }];
      }));
      reports.push({ endpoint: e.endpoint, stores, problems });
    }
    return reports;
  } finally {
    await Promise.all(contenders.map((c) => c.server.stop()));
    pg?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
