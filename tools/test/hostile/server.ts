/**
 * A hostile target for the kit's own tests: a raw TCP server that speaks just enough HTTP/1.1 to lie,
 * one misbehaviour per switch (`HOSTILE_SWITCHES`), set on the running server (`target.mode`), or each
 * request the next switch in turn (`rotate`: one conformance run faces them all). Every
 * answer closes its connection. Payloads are small, so a test facing every switch stays fast.
 *
 * - `long-length` / `short-length`: a body longer / shorter than its Content-Length;
 * - `hang`: reads the request, never answers; `reset`: a TCP reset at the request;
 * - `half-close`: ends its side of the connection without an answer;
 * - `huge-body`: a 5 MiB body (beyond the proxy's capture limit); `endless-body`: chunks until the client leaves;
 * - `escapes`, `html`, `markdown`: problem details whose every text (type, title, detail, code,
 *   request_id, and the X-Request-Id header where HTTP allows) carries terminal escapes, active HTML or
 *   Markdown that breaks out of tables and fences;
 * - `echo-secrets`: echoes every request header (the Authorization key, the profile's headers) back in
 *   its body and in response headers.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export const HOSTILE_SWITCHES = ['long-length', 'short-length', 'hang', 'reset', 'half-close', 'huge-body', 'endless-body', 'escapes', 'html', 'markdown', 'echo-secrets'] as const;
export type HostileSwitch = (typeof HOSTILE_SWITCHES)[number];
/** The order of `rotate`: switches that answer first (a client's first request is its reachability check). */
const ROTATION: readonly HostileSwitch[] = ['escapes', 'html', 'markdown', 'echo-secrets', 'huge-body', 'long-length', 'short-length', 'hang', 'reset', 'half-close', 'endless-body'];

/** Terminal escapes: colour, a title change, a hyperlink, a cursor move and a bell. */
export const ESCAPES = '\u001b[31mRED\u001b[0m\u001b]0;owned\u0007\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\\u001b[2J\r\u0008';
/** Active HTML: elements that run script or load from elsewhere. */
export const ACTIVE_HTML = '<script>alert(1)</script><img src=x onerror=alert(2)><svg onload=alert(3)><iframe src="javascript:alert(4)">';
/** Markdown that breaks out: a fence close, a table cell, a heading, a link and raw HTML. */
export const MARKDOWN = '```\n# Owned\n| a | b |\n[click](javascript:alert(5)) <details open><summary>x</summary>';

export interface HostileTarget {
  /** `http://127.0.0.1:port` */
  url: string;
  /** The API base, `<url>/v1`. */
  baseUrl: string;
  /** The switch every request faces, or `rotate`: each request the next switch, in turn. */
  mode: HostileSwitch | 'rotate';
  /** Requests received since start. */
  requests: number;
  /** The switches requests faced. */
  served: Set<HostileSwitch>;
  stop(): Promise<void>;
}

function problem(text: string, requestId: string): string {
  return JSON.stringify({ type: `https://errors.example/${text}`, title: text, status: 400, detail: `${text} detail`, code: text, request_id: requestId, errors: [{ in: 'query', name: text, message: text }] });
}

function head(status: number, headers: Array<[string, string]>): string {
  return `HTTP/1.1 ${status} X\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}Connection: close\r\n\r\n`;
}

/** Answers one parsed request on `socket` as `mode` says. */
function answer(mode: HostileSwitch, socket: Socket, rawHead: string): void {
  const json = (status: number, body: string, extra: Array<[string, string]> = []) =>
    socket.end(head(status, [['Content-Type', status >= 400 ? 'application/problem+json' : 'application/json'], ['Content-Length', String(Buffer.byteLength(body))], ['X-Request-Id', 'req_hostile'], ...extra]) + body);
  switch (mode) {
    case 'long-length':
      socket.end(`${head(200, [['Content-Type', 'application/json'], ['Content-Length', '5']])}{"data":[],"x":"twenty-one"}`);
      return;
    case 'short-length':
      socket.end(`${head(200, [['Content-Type', 'application/json'], ['Content-Length', '100']])}{"data":[]`);
      return;
    case 'hang':
      return;
    case 'reset':
      socket.resetAndDestroy();
      return;
    case 'half-close':
      socket.end();
      return;
    case 'huge-body': {
      const size = 5 * 1024 * 1024;
      socket.write(head(200, [['Content-Type', 'application/json'], ['Content-Length', String(size)]]));
      socket.end(Buffer.alloc(size, 0x20));
      return;
    }
    case 'endless-body': {
      socket.write(head(200, [['Content-Type', 'application/json'], ['Transfer-Encoding', 'chunked']]));
      const timer = setInterval(() => (socket.writable ? socket.write('400\r\n' + ' '.repeat(1024) + '\r\n') : clearInterval(timer)), 5);
      socket.on('close', () => clearInterval(timer));
      return;
    }
    case 'escapes':
      json(400, problem(ESCAPES, `req_${ESCAPES}`));
      return;
    case 'html':
      json(400, problem(ACTIVE_HTML, `req_${ACTIVE_HTML}`), [['X-Request-Id', ACTIVE_HTML]]);
      return;
    case 'markdown':
      json(400, problem(MARKDOWN, `req_${MARKDOWN}`));
      return;
    case 'echo-secrets': {
      const lines = rawHead.split('\r\n').slice(1).filter(Boolean);
      const echoed: Array<[string, string]> = lines.map((l, i) => [`X-Echo-${i}`, l.replace(/[^\x20-\x7e]/g, '')]);
      json(401, JSON.stringify({ type: 'about:blank', title: 'Echo', status: 401, detail: lines.join(' | '), code: 'invalid_api_key', request_id: 'req_echo', echoed: lines }), echoed);
      return;
    }
  }
}

/** Starts a hostile target on a free port (or `port`) in mode `mode`. */
export async function startHostile(mode: HostileTarget['mode'], port = 0): Promise<HostileTarget> {
  const sockets = new Set<Socket>();
  const target = { mode, requests: 0, served: new Set() } as unknown as HostileTarget;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      if (buffered === undefined) return;
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const faced = target.mode === 'rotate' ? ROTATION[target.requests % ROTATION.length]! : target.mode;
      target.requests++;
      target.served.add(faced);
      const rawHead = buffered.slice(0, end);
      buffered = undefined as unknown as string;
      answer(faced, socket, rawHead);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(target, {
    url,
    baseUrl: `${url}/v1`,
    stop: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  });
}
