/**
 * Throughput: requests per second of the stateful mock (every rule on: authentication by hashed key,
 * rate limit, scope, module, validation, request id, problem details), plain `prism mock`, a bare
 * node:http server and fastify, the last two answering the mock's own response bytes, on GET
 * /v1/meters/{id} and GET /v1/work-orders?limit=100 (Prism drops the /v1 prefix). Every server gets the
 * same requests (same keys, same headers) over the same connections; rounds are interleaved, the server
 * order rotating from round to round, and medians are compared. Prism is left out of the list: it
 * answers its static one-row example (or, dynamic, a random number of rows), never a 100-row page, so a
 * ratio would compare unequal work (PRISM_LIST_DROPPED).
 */
import { KeyPool, seededLiveKeys } from './keys.ts';
import { median, perKey, runLoad, type LoadResult } from './load.ts';
import { captureResponse, startBareServer, startFastifyServer, startMockServer, startPrism, type BenchServer } from './servers.ts';

/** Why the list endpoint has no Prism ratio. */
export const PRISM_LIST_DROPPED = 'prism mock answers its static example (one row, 0.8 KB) or, with --dynamic, a random number of generated rows: never a 100-row page, so no equal-work ratio';

export interface ThroughputOptions {
  connections: number;
  /** Seconds per measured run. */
  duration: number;
  /** Seconds of warm-up per server and endpoint. */
  warmup: number;
  rounds: number;
  log: (line: string) => void;
}

export interface ServerFigures {
  /** Median requests per second, and each round's. */
  rps: number;
  rounds: number[];
  p50: number;
  p99: number;
  responseBytes: number;
  /** Median CPU time of the server process per answer (µs; `process.cpuUsage()` over a run ÷ answers), and each round's; absent for Prism. */
  cpuPerAnswer?: number;
  cpuRounds?: number[];
}

export interface EndpointReport {
  endpoint: string;
  mockPath: string;
  prismPath: string;
  servers: Record<string, ServerFigures>;
  /** Median mock rps over median prism rps (undefined where Prism cannot do the same work: `prismDropped`), bare node:http rps and fastify rps. */
  vsPrism?: number;
  prismDropped?: string;
  vsBare: number;
  /**
   * Each round's mock rps over that round's bare rps (the two ran within seconds of each other): their
   * spread is how far one round's ratio strays on this machine, beside the median ratio `vsBare`.
   */
  vsBareRounds: number[];
  vsFastify: number;
  /** Median fastify rps over median bare rps. */
  fastifyVsBare: number;
  /** Anything that makes a round invalid (non-2xx answers, socket errors). */
  problems: string[];
}

/**
 * One run with keys of its own, planned (keys and a request cap) for twice the fastest rate seen so far,
 * and at least `plan.rps`.
 */
async function measure(server: BenchServer, path: string, keys: KeyPool, options: ThroughputOptions, seconds: number, plan: { rps: number }): Promise<Measured> {
  const planned = Math.ceil(plan.rps * seconds);
  const list = perKey(server.name === 'mock' ? await keys.keysFor(planned, options.connections) : keys.spentKeys(planned, options.connections), path);
  const cpuBefore = await server.cpu?.();
  const result = await runLoad(server.url, list, { connections: options.connections, duration: seconds, maxRequests: planned });
  const cpuAfter = await server.cpu?.();
  plan.rps = Math.max(plan.rps, 2 * result.rps);
  const cpuPerAnswer = cpuBefore === undefined || cpuAfter === undefined || result.responses === 0 ? undefined : (cpuAfter - cpuBefore) / result.responses;
  return { ...result, cpuPerAnswer };
}

/** Round by round, `a`'s rate over `b`'s (both lists in round order, one run each per round). */
export function pairedRatios(a: readonly { rps: number }[], b: readonly { rps: number }[]): number[] {
  return a.map((run, round) => run.rps / b[round]!.rps);
}

/** A run's load figures and the server's CPU time per answer (µs; undefined where the server cannot tell). */
type Measured = LoadResult & { cpuPerAnswer?: number };

/** Runs the throughput comparison and returns one report per endpoint. */
export async function throughput(options: ThroughputOptions): Promise<EndpointReport[]> {
  const mock = await startMockServer();
  const servers: BenchServer[] = [mock];
  try {
    const keys = new KeyPool(mock.url, await seededLiveKeys(mock.url));
    const [setupKey] = await keys.keysFor(100, 1);
    const auth = { authorization: `Bearer ${setupKey}` };
    const meters = (await (await fetch(`${mock.url}/v1/meters?limit=1`, { headers: auth })).json()) as { data: Array<{ id: string }> };
    const meterId = meters.data[0]!.id;
    const endpoints = [
      { endpoint: 'GET /v1/meters/{id}', mockPath: `/v1/meters/${meterId}`, prismPath: `/meters/${meterId}`, withPrism: true },
      { endpoint: 'GET /v1/work-orders?limit=100', mockPath: '/v1/work-orders?limit=100', prismPath: '/work-orders?limit=100', withPrism: false },
    ];
    options.log('starting prism mock …');
    const prism = await startPrism(endpoints[0]!.prismPath, auth);
    servers.push(prism);
    const reports: EndpointReport[] = [];
    const plan = { rps: 40_000 };
    for (const e of endpoints) {
      const captured = await captureResponse(mock.url, e.mockPath, auth);
      if (captured.status !== 200) throw new Error(`${e.endpoint} answered ${captured.status}: ${captured.body.toString()}`);
      const bare = await startBareServer(captured);
      servers.push(bare);
      const fastify = await startFastifyServer(captured);
      servers.push(fastify);
      const contenders = [
        { server: mock as BenchServer, path: e.mockPath, bytes: captured.body.length },
        ...(e.withPrism ? [{ server: prism, path: e.prismPath, bytes: (await captureResponse(prism.url, e.prismPath, auth)).body.length }] : []),
        { server: bare, path: e.mockPath, bytes: captured.body.length },
        { server: fastify, path: e.mockPath, bytes: captured.body.length },
      ];
      const runs = new Map<string, Measured[]>(contenders.map((c) => [c.server.name, []]));
      const problems: string[] = [];
      for (const c of contenders) {
        options.log(`${e.endpoint}: warming up ${c.server.name} (${options.warmup} s)`);
        await measure(c.server, c.path, keys, options, options.warmup, plan);
      }
      for (let round = 0; round < options.rounds; round++) {
        const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
        for (const c of order) {
          const r = await measure(c.server, c.path, keys, options, options.duration, plan);
          runs.get(c.server.name)!.push(r);
          options.log(`${e.endpoint}: round ${round + 1}/${options.rounds} ${c.server.name.padEnd(10)} ${Math.round(r.rps).toString().padStart(6)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms${r.cpuPerAnswer === undefined ? '' : `  CPU ${r.cpuPerAnswer.toFixed(1)} µs/answer`}`);
          if (r.non2xx || r.errors || r.timeouts) problems.push(`${c.server.name} round ${round + 1}: ${r.non2xx} non-2xx (${JSON.stringify(r.statuses)}), ${r.errors} errors, ${r.timeouts} timeouts`);
        }
      }
      const figures = (name: string, bytes: number): ServerFigures => {
        const list = runs.get(name)!;
        const cpu = list.flatMap((r) => (r.cpuPerAnswer === undefined ? [] : [r.cpuPerAnswer]));
        const rps = { rps: median(list.map((r) => r.rps)), rounds: list.map((r) => Math.round(r.rps)), p50: median(list.map((r) => r.p50)), p99: median(list.map((r) => r.p99)), responseBytes: bytes };
        return cpu.length ? { ...rps, cpuPerAnswer: median(cpu), cpuRounds: cpu.map((c) => Math.round(c * 10) / 10) } : rps;
      };
      const byName = Object.fromEntries(contenders.map((c) => [c.server.name, figures(c.server.name, c.bytes)]));
      reports.push({
        endpoint: e.endpoint,
        mockPath: e.mockPath,
        prismPath: e.prismPath,
        servers: byName,
        ...(e.withPrism ? { vsPrism: byName.mock!.rps / byName['prism mock']!.rps } : { prismDropped: PRISM_LIST_DROPPED }),
        vsBare: byName.mock!.rps / byName['node:http']!.rps,
        vsBareRounds: pairedRatios(runs.get('mock')!, runs.get('node:http')!),
        vsFastify: byName.mock!.rps / byName.fastify!.rps,
        fastifyVsBare: byName.fastify!.rps / byName['node:http']!.rps,
        problems,
      });
      for (const reference of [bare, fastify]) {
        await reference.stop();
        servers.splice(servers.indexOf(reference), 1);
      }
    }
    return reports;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
