/**
 * A small round-robin front for mock replicas (docs/integrators.md, "State and replicas"): every request
 * goes to the next upstream in turn, as is (method, path, raw headers, body), with `Host` set to the
 * upstream's; the answer comes back as is. Any load balancer does the same; this one lets the kit run
 * its conformance suite against replicas without one.
 */
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
  /** `http://127.0.0.1:port` */
  url: string;
  server: Server;
  stop(): Promise<void>;
}

/** Starts a front over `upstreams` (`http://host:port` each) on 127.0.0.1:`port` (0 picks a free one). */
export async function startRoundRobin(upstreams: string[], port = 0): Promise<RoundRobin> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const targets = upstreams.map((u) => new URL(u));
  let turn = 0;
  const server = createServer((req, res) => {
    const target = targets[turn++ % targets.length]!;
    // Raw headers, repeated ones included (the mock answers some repetitions with 400), Host rewritten.
    const headers = req.rawHeaders.map((v, i) => (i % 2 === 1 && req.rawHeaders[i - 1]!.toLowerCase() === 'host' ? target.host : v));
    const upstream = request({ agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers, setHost: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('upstream failed');
    });
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    server,
    stop: () => new Promise<void>((done) => {
      agent.destroy();
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}
