/**
 * Writing responses. Every response gets `X-Request-ID`; successful authenticated ones get the three
 * `X-RateLimit-*` headers (Limits › response headers); errors are `application/problem+json`.
 */
import { STATUS_CODES, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { ProblemError, problemBody } from './problem.ts';
import { ChunkedJsonBody, textEncoding } from './chunked-json-body.ts';

/** The outcome of one request against a key's budget (pipeline/rate-limit.ts), as the `X-RateLimit-*` headers tell it. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time (seconds) at which the window resets. */
  reset: number;
  /** Seconds until the reset (at least 1); meaningful when refused. */
  retryAfter: number;
}

/** A response about to be written; what onSend hooks (faults, the self-test's mutants) may change. */
export interface Outgoing {
  status: number;
  headers: OutgoingHttpHeaders;
  /** Text, or a list page in chunks (`String(body)` reads it as text; assigning a string replaces it). */
  body?: string | ChunkedJsonBody;
}

/** Writes a response as it is (the onSend hooks of faults and mutants have run: app.ts `send`). */
export function write(res: ServerResponse, final: Outgoing): void {
  const body = final.body;
  if (body === undefined) {
    res.writeHead(final.status, final.headers);
    res.end();
    return;
  }
  const bytes = byteLengthOf(body);
  final.headers['Content-Length'] = bytes;
  res.writeHead(final.status, final.headers);
  endWith(res, body, bytes);
}

/** A body's length in UTF-8 bytes (Content-Length): a list page's chunks measured by the page. */
export function byteLengthOf(body: string | ChunkedJsonBody): number {
  return body instanceof ChunkedJsonBody ? body.byteLength : Buffer.byteLength(body);
}

/**
 * Ends a response with its body of `bytes` UTF-8 bytes: a list page's chunks in one write (the records'
 * bytes are not copied), text in one encoding (chunked-json-body.ts `textEncoding`).
 */
function endWith(res: ServerResponse, body: string | ChunkedJsonBody, bytes: number): void {
  if (!(body instanceof ChunkedJsonBody)) {
    res.end(body, textEncoding(body.length, bytes));
    return;
  }
  const encoding = body.textEncoding;
  res.cork();
  res.write(body.head, encoding);
  res.write(body.items);
  res.end(body.tail, encoding);
  res.uncork();
}

/**
 * Writes the usual success of an API request — a JSON body (text, or a list page in chunks), the
 * rate-limit headers, CORS on — when no onSend hook is registered: the very headers `success`,
 * `addCorsHeaders` (pipeline/cors.ts) and `write` give it, in their order, handed to node:http as one
 * flat list (it walks an array instead of an object's own keys, and no Outgoing is built). `bytes` is
 * the body's length in UTF-8 bytes; `cors` is CORS_HEADERS.
 */
export function writeApiSuccess(res: ServerResponse, requestId: string, status: number, body: string | ChunkedJsonBody, bytes: number, rate: RateDecision, cors: Readonly<Record<'Access-Control-Allow-Origin' | 'Access-Control-Expose-Headers', string>>): void {
  res.writeHead(status, [
    'X-Request-ID', requestId,
    'X-RateLimit-Limit', String(rate.limit),
    'X-RateLimit-Remaining', String(rate.remaining),
    'X-RateLimit-Reset', String(rate.reset),
    'Content-Type', 'application/json',
    'Access-Control-Allow-Origin', cors['Access-Control-Allow-Origin'],
    'Access-Control-Expose-Headers', cors['Access-Control-Expose-Headers'],
    'Content-Length', String(bytes),
  ]);
  endWith(res, body, bytes);
}

/** A successful reply with its headers. */
export function success(requestId: string, status: number, body: string | ChunkedJsonBody | undefined, rate: RateDecision | undefined, extra?: Record<string, string>): Outgoing {
  // One literal per shape (a success of an authenticated request carries the rate-limit headers).
  const headers: OutgoingHttpHeaders = rate
    ? { 'X-Request-ID': requestId, 'X-RateLimit-Limit': String(rate.limit), 'X-RateLimit-Remaining': String(rate.remaining), 'X-RateLimit-Reset': String(rate.reset) }
    : { 'X-Request-ID': requestId };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (extra) Object.assign(headers, extra);
  return { status, headers, body };
}

/**
 * A whole HTTP/1.1 response, closing the connection: for sockets node:http no longer serves (requests
 * it could not parse, CONNECT).
 */
export function rawResponse(out: Outgoing): string {
  const body = String(out.body ?? '');
  const headers = { ...out.headers, 'Content-Length': Buffer.byteLength(body), Connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${String(value)}\r\n`).join('');
  return `HTTP/1.1 ${out.status} ${STATUS_CODES[out.status] ?? 'Error'}\r\n${lines}\r\n${body}`;
}

/** Problem details for an error. */
export function failure(requestId: string, error: ProblemError): Outgoing {
  return {
    status: error.status,
    headers: { 'X-Request-ID': requestId, 'Content-Type': 'application/problem+json', ...error.headers },
    body: problemBody(error.status, error.code, error.detail, requestId, error.extra),
  };
}
