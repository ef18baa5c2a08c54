/**
 * The forwarding half of the validating proxy: a node:http server that streams every request to the
 * upstream and every answer back, byte for byte (method, request-target, headers in their order and
 * case, body), minus the hop-by-hop headers (RFC 9110 §7.6.1). Nothing is decoded, re-encoded or
 * refused: what the upstream would answer directly, the client gets through the proxy. A copy of each
 * exchange's bytes is handed to `onExchange` once its answer is complete, after it was forwarded.
 *
 * A lying upstream never takes the proxy down (docs/integrators.md, "Reliability"): an answer with more
 * bytes than its Content-Length is forwarded as framed (the extra bytes dropped), one with fewer ends the
 * client's connection early (HTTP has no other way to say it); both reach `onExchange` with `framing`
 * set. An upstream silent for `upstreamTimeoutMs` gets the client 504 problem details (or, once the
 * answer has begun, an early close).
 */
import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { badGateway, UpstreamTimeout } from './bad-gateway.ts';
import { Capture } from './capture.ts';
import { endToEnd } from './headers.ts';
import { RawRelay } from './tunnel.ts';

/** Bytes of a body kept for validation; larger bodies are forwarded whole but judged without their body. */
export const CAPTURE_LIMIT = 4 * 1024 * 1024;
/** Headers up to this size are parsed and forwarded (the upstream decides what is too large). */
const MAX_HEADER_BYTES = 256 * 1024;
/**
 * The most header bytes the forwarded request can have beyond the client's: node:http frames it itself,
 * with `Connection: keep-alive` and, for a bodyless request of a method other than GET, HEAD, DELETE,
 * OPTIONS, TRACE or CONNECT, `Transfer-Encoding: chunked` (an empty body). A request this close to the
 * upstream's header limit may be refused (431) through the proxy and accepted directly.
 */
export const REFRAMING_BYTES = 'Connection: keep-alive\r\n'.length + 'Transfer-Encoding: chunked\r\n'.length;

/** One forwarded request and its answer, as copies of their bytes. */
export interface ObservedExchange {
  method: string;
  /** The request-target exactly as received (`/v1/meters/%?limit=0x10`). */
  target: string;
  requestHeaders: string[];
  requestBody: Capture;
  status: number;
  responseHeaders: string[];
  responseBody: Capture;
  durationMs: number;
  /** Set when the answer broke its framing (RFC 9112 §6.3): Content-Length declared, body bytes received (`more`: beyond it). */
  framing?: { declared: number; received: number | 'more' };
}

export interface ForwarderOptions {
  /** The upstream; requests go to its origin with their request-target unchanged. */
  upstream: URL;
  /** Called after each complete exchange (never for relayed raw bytes or failed ones). */
  onExchange(x: ObservedExchange): void;
  /** Called when a connection is relayed as raw bytes (unparsable request or CONNECT). */
  onRelayed?(reason: string): void;
  /** How long the upstream may stay silent (no answer, or no byte of it), in ms. */
  upstreamTimeoutMs: number;
}

/** Creates the forwarding server (not yet listening). */
export function createForwarder(o: ForwarderOptions): Server {
  const secure = o.upstream.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const hostname = o.upstream.hostname.replace(/^\[|\]$/g, '');
  const port = Number(o.upstream.port) || (secure ? 443 : 80);
  const relay = new RawRelay(o.upstream);

  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const started = Date.now();
    const requestBody = new Capture(CAPTURE_LIMIT);
    const responseBody = new Capture(CAPTURE_LIMIT);
    const headers = endToEnd(req.rawHeaders);
    // Keep the body framed as the client framed it: a chunked body is re-chunked, not buffered.
    if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] === undefined) headers.push('Transfer-Encoding', 'chunked');
    const out = send({ hostname, port, method: req.method, path: req.url, headers, agent, setHost: false, maxHeaderSize: MAX_HEADER_BYTES, servername: secure ? hostname : undefined });
    let answered: IncomingMessage | undefined;
    let overrun = false;
    const observed = (up: IncomingMessage, framing?: ObservedExchange['framing']): ObservedExchange => ({ method: req.method ?? 'GET', target: req.url ?? '/', requestHeaders: req.rawHeaders, requestBody, status: up.statusCode ?? 0, responseHeaders: up.rawHeaders, responseBody, durationMs: Date.now() - started, ...(framing && { framing }) });
    res.on('error', () => out.destroy());
    out.setTimeout(o.upstreamTimeoutMs, () => out.destroy(new UpstreamTimeout(o.upstreamTimeoutMs)));
    out.on('response', (up) => {
      answered = up;
      res.writeHead(up.statusCode ?? 502, up.statusMessage, endToEnd(up.rawHeaders));
      up.on('data', (chunk: Buffer) => responseBody.add(chunk));
      up.pipe(res);
      up.on('error', () => res.destroy());
      up.on('end', () => {
        // Bytes past the Content-Length make the parser fail in the same turn: by the next, `overrun` is known.
        if (up.complete) setImmediate(() => o.onExchange(observed(up, overrun ? { declared: Number(up.headers['content-length']), received: 'more' } : undefined)));
      });
      up.on('close', () => {
        if (up.complete) return;
        res.destroy();
        const declared = Number(up.headers['content-length']);
        if (Number.isFinite(declared) && responseBody.length < declared) setImmediate(() => o.onExchange(observed(up, { declared, received: responseBody.length })));
      });
    });
    out.on('error', (error) => {
      // Bytes after a complete answer (more than its Content-Length, a body sent to HEAD) are the upstream's noise: the answer stands, as framed.
      if (answered?.complete) {
        overrun = true;
        return;
      }
      if (answered || res.headersSent) {
        res.destroy();
        return;
      }
      const answer = badGateway(error);
      req.resume();
      res.writeHead(answer.status, answer.headers).end(answer.body);
    });
    req.on('data', (chunk: Buffer) => requestBody.add(chunk));
    req.on('error', () => out.destroy());
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    req.pipe(out);
  };

  const server = createServer({ requireHostHeader: false, maxHeaderSize: MAX_HEADER_BYTES, keepAliveTimeout: 30_000 }, forward);
  // An Expect other than 100-continue is the upstream's to judge: forward it like any request.
  server.on('checkExpectation', forward);
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    o.onRelayed?.(error.code ?? 'unparsable request');
    relay.relay(socket, error.rawPacket);
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    o.onRelayed?.('CONNECT');
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    relay.relay(socket, Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), head]));
  });
  return server;
}
