/**
 * The validating proxy (docs/integrators.md, "The validation proxy"): forwards traffic to an upstream byte for byte
 * (forward.ts) and judges copies of it beside the traffic (judge.ts), never changing an answer.
 * `startProxy` listens and resolves once ready; `stop()` closes it and returns the report.
 */
import type { AddressInfo } from 'node:net';
import { createForwarder } from './forward.ts';
import { HarRecorder } from './har.ts';
import { Judge, type Finding } from './judge.ts';
import { Ledger, liveLine } from './ledger.ts';
import type { ProxyReport } from './report.ts';
import { ProxySecrets } from './secrets.ts';

/** A finding with every text the upstream or client chose masked and made printable (proxy/secrets.ts). */
function cleanFinding(f: Finding, secrets: ProxySecrets): Finding {
  const clean = (t: string | undefined) => (t === undefined ? undefined : secrets.text(t));
  return { ...f, message: secrets.text(f.message), target: secrets.text(f.target), location: secrets.text(f.location), requestId: clean(f.requestId), operation: clean(f.operation) };
}

export interface ProxyOptions {
  /** The upstream's API base, e.g. `http://127.0.0.1:4010/v1`; its path says which requests are the API's. */
  upstream: string;
  /** TCP port; 0 picks a free one. */
  port: number;
  host?: string;
  /** Receives one line per violating exchange (default: none); secrets masked, control characters stripped. */
  log?: (line: string) => void;
  /** How long the upstream may stay silent before the client gets 504 problem details, in ms (default UPSTREAM_TIMEOUT_MS). */
  upstreamTimeoutMs?: number;
  /** Client connections served at once; more are closed at accept (default MAX_PROXY_CONNECTIONS, like the mock's cap). */
  maxConnections?: number;
  /** Keep every exchange as HAR (har.ts; `har()` returns it). */
  har?: boolean;
}

/** The default upstream timeout: 60 s, like common reverse proxies' read timeout. */
export const UPSTREAM_TIMEOUT_MS = 60_000;
/** The default cap on client connections (the mock's own cap, mock/server.ts). */
export const MAX_PROXY_CONNECTIONS = 512;

export interface RunningProxy {
  /** `http://host:port` */
  url: string;
  port: number;
  ledger: Ledger;
  /** Resolves once every exchange answered so far has been judged. */
  settled(): Promise<void>;
  /** Stops listening, closes connections, returns the report. */
  stop(): Promise<ProxyReport>;
  /** The exchanges so far as a HAR 1.2 document (with `har: true`; else undefined). */
  har(): object | undefined;
}

/** Throws a TypeError for an upstream that is not an absolute http(s) URL. */
export function parseUpstream(value: string): URL {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${value} is not an http(s) URL`);
  return url;
}

/** Starts the proxy; rejects with the listen error (EADDRINUSE, EACCES) when it cannot bind. */
export async function startProxy(o: ProxyOptions): Promise<RunningProxy> {
  const upstream = parseUpstream(o.upstream);
  const judge = new Judge(upstream.pathname.replace(/\/$/, ''));
  const ledger = new Ledger();
  const secrets = new ProxySecrets();
  const startedAt = new Date().toISOString();
  const har = o.har ? new HarRecorder(upstream) : undefined;
  const server = createForwarder({
    upstream,
    upstreamTimeoutMs: o.upstreamTimeoutMs ?? UPSTREAM_TIMEOUT_MS,
    onRelayed: () => ledger.relayed++,
    onExchange(x) {
      secrets.learn(x.requestHeaders);
      har?.add(x);
      try {
        const violations = ledger.record(judge.judge(x).map((f) => cleanFinding(f, secrets)));
        if (violations.length) o.log?.(liveLine(violations));
      } catch (e) {
        o.log?.(secrets.text(`proxy: could not judge ${x.method} ${x.target.slice(0, 200)}: ${(e as Error).message}`));
      }
    },
  });
  server.maxConnections = o.maxConnections ?? MAX_PROXY_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = o.host ?? '127.0.0.1';
  // An exchange is judged (synchronously) in the turn after its answer ended: one more turn settles it.
  const settled = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    ledger,
    settled,
    har: () => har?.document(),
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await settled();
      return { upstream: upstream.toString(), startedAt, endedAt: new Date().toISOString(), ...ledger.summary() };
    },
  };
}
