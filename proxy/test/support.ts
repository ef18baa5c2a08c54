/**
 * Test fixtures of the proxy's tests: an in-process mock with the proxy in front of it, a raw-socket
 * sender, and an echo upstream that answers with exactly the bytes it received.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { createHash } from 'node:crypto';
import { startTestMock, type TestMock } from '../../mock/test/support.ts';
import type { MockOptions } from '../../mock/server.ts';
import { startProxy, type RunningProxy } from '../start.ts';

export interface ProxiedMock extends TestMock {
  proxy: RunningProxy;
  /** `call` through the proxy. */
  viaProxy(path: string, init?: RequestInit): Promise<Response>;
  /** Lines the proxy logged. */
  lines: string[];
  stop(): Promise<void>;
}

/** A mock on a free port and the proxy (free port) in front of its `/v1` base. */
export async function startProxiedMock(options: MockOptions = {}): Promise<ProxiedMock> {
  const mock = await startTestMock(options);
  const lines: string[] = [];
  const proxy = await startProxy({ upstream: mock.mock.baseUrl, port: 0, log: (l) => lines.push(l) });
  const viaProxy = (path: string, init: RequestInit = {}) =>
    fetch(`${proxy.url}${path}`, { ...init, headers: { authorization: `Bearer ${mock.key}`, ...(init.headers as Record<string, string>) }, signal: AbortSignal.timeout(5000) });
  return { ...mock, proxy, lines, viaProxy, stop: async () => { await proxy.stop(); await mock.mock.stop(); } };
}

/** A raw response: status line code, headers (lowercased) and the body bytes (Content-Length framing). */
export interface RawAnswer { status: number; headers: Record<string, string>; body: Buffer }

/** Sends raw request bytes on a new connection and reads one answer; rejects after 10 s (a hang). */
export function sendRaw(port: number, request: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => { socket.destroy(); reject(new Error('no answer within 10 s')); }, 10_000);
    const tryParse = () => {
      const bytes = Buffer.concat(chunks);
      let start = 0;
      for (;;) {
        const end = bytes.indexOf('\r\n\r\n', start);
        if (end === -1) return undefined;
        const [line, ...rest] = bytes.subarray(start, end).toString('latin1').split('\r\n');
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(line!)?.[1]);
        if (status < 200) { start = end + 4; continue; }
        const headers: Record<string, string> = {};
        for (const h of rest) headers[h.slice(0, h.indexOf(':')).toLowerCase()] = h.slice(h.indexOf(':') + 1).trim();
        const length = Number(headers['content-length'] ?? 0);
        if (bytes.length < end + 4 + length) return undefined;
        return { status, headers, body: bytes.subarray(end + 4, end + 4 + length) };
      }
    };
    const finish = () => {
      const answer = tryParse();
      if (!answer) return false;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
      return true;
    };
    socket.on('data', (c: Buffer) => { chunks.push(c); finish(); });
    socket.on('error', () => {});
    socket.on('close', () => { if (!finish()) { clearTimeout(timer); reject(new Error(`closed without a complete answer: ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`)); } });
    socket.write(request);
  });
}

/** What the echo upstream received: method, target, raw headers and the SHA-256 and length of the body. */
export interface Echo { method: string; target: string; rawHeaders: string[]; bodySha256: string; bodyLength: number }

/** An upstream that answers 200 with the JSON Echo of each request it receives. */
export async function startEcho(): Promise<{ server: Server; url: string; stop(): Promise<void> }> {
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    const hash = createHash('sha256');
    let length = 0;
    req.on('data', (c: Buffer) => { hash.update(c); length += c.length; });
    req.on('end', () => {
      const echo: Echo = { method: req.method!, target: req.url!, rawHeaders: req.rawHeaders, bodySha256: hash.digest('hex'), bodyLength: length };
      const body = JSON.stringify(echo);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url, stop: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

/** The SHA-256 of bytes, hex. */
export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * A body with what differs between two equal requests masked: request ids (new per answer), the ids and
 * times of records a write creates, cursors (signed with each mock's own secret).
 */
export const masked = (body: Buffer | string) => body.toString()
  .replace(/req_[0-9a-z]+/g, 'req_*')
  .replace(/\b([a-z]{2,5})_[0-9a-z]{12}\b/g, '$1_*')
  .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
  .replace(/("(?:next_cursor|nextCursor|cursor)":)"[^"]*"/g, '$1"<cursor>"')
  .replace(/cursor=[^&"]*/g, 'cursor=<cursor>');
