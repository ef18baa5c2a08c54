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

/**
 * The mock's one writer: a response as it is (the onSend hooks, if any, have run: app.ts), its headers
 * as an object or as node:http's flat list `[name, value, …]` (successHeaders), with Content-Length
 * (`bytes` when the caller knows the body's UTF-8 length, else measured).
 */
export function write(res: ServerResponse, status: number, headers: OutgoingHttpHeaders | string[], body?: string | ChunkedJsonBody, bytes?: number): void {
  if (body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const length = bytes ?? byteLengthOf(body);
  if (Array.isArray(headers)) headers.push('Content-Length', String(length));
  else headers['Content-Length'] = length;
  res.writeHead(status, headers);
  endWith(res, body, length);
}

/** `write` of an Outgoing. */
export function writeOutgoing(res: ServerResponse, out: Outgoing): void {
  write(res, out.status, out.headers, out.body);
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
 * The headers of a success as node:http's flat list: X-Request-ID, the rate-limit headers (Limits ›
 * response headers: "successful authenticated responses") when `rate` is given, Content-Type when it has
 * a body, then `extra` (CORS, a handler's own) in their order. The one builder of a success's headers:
 * written as they are, or made an Outgoing for onSend hooks (`outgoingOf`).
 */
export function successHeaders(requestId: string, rate: RateDecision | undefined, hasBody: boolean, ...extra: Array<Readonly<Record<string, string>> | undefined>): string[] {
  const list = rate
    ? ['X-Request-ID', requestId, 'X-RateLimit-Limit', String(rate.limit), 'X-RateLimit-Remaining', String(rate.remaining), 'X-RateLimit-Reset', String(rate.reset)]
    : ['X-Request-ID', requestId];
  if (hasBody) list.push('Content-Type', 'application/json');
  for (const headers of extra) if (headers) for (const name in headers) list.push(name, headers[name]!);
  return list;
}

/** A response with headers given as a flat list, as an Outgoing (its headers an object) for onSend hooks. */
export function outgoingOf(status: number, list: readonly string[], body: string | ChunkedJsonBody | undefined): Outgoing {
  const headers: OutgoingHttpHeaders = {};
  for (let i = 0; i < list.length; i += 2) headers[list[i]!] = list[i + 1]!;
  return { status, headers, body };
}

/** A successful reply with its headers (successHeaders), as an Outgoing. */
export function success(requestId: string, status: number, body: string | ChunkedJsonBody | undefined, rate: RateDecision | undefined, extra?: Record<string, string>): Outgoing {
  return outgoingOf(status, successHeaders(requestId, rate, body !== undefined, extra), body);
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
