/**
 * The mock's own cost per request, without node:http or a socket: `app.handle` of an in-process mock
 * (mock/server.ts `startMock`, every rule on) called with stub request and response objects, for the
 * throughput part's two endpoints. What it times is exactly the stages (docs/design.md §4), the handler
 * and the building of the answer (the header list and body `writeApiSuccess` hands to node:http); what
 * it leaves out is node:http's parsing and writing and the kernel's send, which the throughput part's
 * references pay as well. Far steadier than a rate on a shared machine: the working measure for a
 * change to the request path.
 *
 * Keys are minted through the control API like the throughput part's and cycled the same way (one key
 * after another, `keys` of them), so the key records, scope sets and rate-limit windows a request reads
 * are as many as there; every round moves the mock's clock a minute on (a new rate-limit window), and
 * each key stays within its budget. Rounds alternate the endpoints; medians are reported.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startMock } from '../mock/server.ts';
import { BENCH_CONTROL_TOKEN } from './control.ts';
import { KeyPool, seededLiveKeys } from './keys.ts';
import { median } from './load.ts';

export interface RequestPathOptions {
  /** Distinct keys cycled (the throughput part uses about 500 a run). */
  keys: number;
  /** Requests per round and endpoint. */
  requests: number;
  rounds: number;
  log: (line: string) => void;
}

export interface RequestPathEndpoint {
  endpoint: string;
  /** Median nanoseconds per request, and each round's. */
  nsPerRequest: number;
  rounds: number[];
}

export interface RequestPathReport {
  keys: number;
  requests: number;
  endpoints: RequestPathEndpoint[];
  /** Answers other than 200 (a stage refused a request: the figure would time the wrong path). */
  problems: string[];
}

/** A GET as node:http hands it over, with the fields the stages read. */
function stubRequest(path: string, key: string): IncomingMessage {
  const authorization = `Bearer ${key}`;
  return { method: 'GET', url: path, httpVersion: '1.1', headers: { host: '127.0.0.1', authorization }, rawHeaders: ['Host', '127.0.0.1', 'authorization', authorization], readableEnded: true, destroyed: false, resume() {} } as unknown as IncomingMessage;
}

/** A response that takes what the mock writes and counts the statuses. */
function stubResponse(statuses: Map<number, number>): ServerResponse {
  const res = {
    headersSent: false,
    writeHead(status: number) {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      return res;
    },
    write: () => true,
    end: () => res,
    cork() {},
    uncork() {},
  };
  return res as unknown as ServerResponse;
}

/** Measures the request path of GET /v1/meters/{id} and GET /v1/work-orders?limit=100 in-process. */
export async function requestPath(options: RequestPathOptions): Promise<RequestPathReport> {
  if (Math.ceil(options.requests / options.keys) > 950) throw new Error(`${options.requests} requests over ${options.keys} keys would spend a key's budget of 1,000 in one window`);
  const mock = await startMock({ port: 0, controlToken: BENCH_CONTROL_TOKEN, preloadPrism: false });
  try {
    const pool = new KeyPool(mock.url, await seededLiveKeys(mock.url));
    const keys = await pool.unused(options.keys);
    const meters = (await (await fetch(`${mock.baseUrl}/meters?limit=1`, { headers: { authorization: `Bearer ${keys[0]}` } })).json()) as { data: Array<{ id: string }> };
    const endpoints = [
      { endpoint: 'GET /v1/meters/{id}', path: `/v1/meters/${meters.data[0]!.id}` },
      { endpoint: 'GET /v1/work-orders?limit=100', path: '/v1/work-orders?limit=100' },
    ].map((e) => ({ ...e, requests: keys.map((key) => stubRequest(e.path, key)), times: [] as number[] }));
    const statuses = new Map<number, number>();
    const res = stubResponse(statuses);
    const app = mock.app;
    for (let round = 0; round < options.rounds; round++) {
      for (let i = 0; i < endpoints.length; i++) {
        const e = endpoints[(i + round) % endpoints.length]!;
        app.world.clock.advance(60_000);
        const started = process.hrtime.bigint();
        for (let n = 0; n < options.requests; n++) app.handle(e.requests[n % keys.length]!, res);
        const ns = Number(process.hrtime.bigint() - started) / options.requests;
        e.times.push(ns);
        options.log(`${e.endpoint}: round ${round + 1}/${options.rounds} ${Math.round(ns)} ns/request`);
      }
    }
    const problems = [...statuses].filter(([status]) => status !== 200).map(([status, count]) => `${count} answers ${status}`);
    return {
      keys: keys.length,
      requests: options.requests,
      endpoints: endpoints.map((e) => ({ endpoint: e.endpoint, nsPerRequest: median(e.times), rounds: e.times.map(Math.round) })),
      problems,
    };
  } finally {
    await mock.stop();
  }
}
