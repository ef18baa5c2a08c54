/**
 * Writing responses. Every response gets `X-Request-ID`; successful authenticated ones get the three
 * `X-RateLimit-*` headers (Limits › response headers); errors are `application/problem+json`.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { RateDecision } from '../pipeline/rate-limit.ts';
import { ProblemError, problemBody } from '../pipeline/problem.ts';

/** A response about to be written; the last chance for fault injection and the self-test's mutants. */
export interface Outgoing {
  status: number;
  headers: OutgoingHttpHeaders;
  body?: string;
}

/** Transforms applied to every response before it is written (faults, mutants). */
export type ResponseHook = (out: Outgoing) => Outgoing;

export function write(res: ServerResponse, out: Outgoing, hook?: ResponseHook): void {
  const final = hook ? hook(out) : out;
  if (final.body !== undefined) final.headers['Content-Length'] = Buffer.byteLength(final.body);
  res.writeHead(final.status, final.headers);
  res.end(final.body);
}

/** A successful reply with its headers. */
export function success(requestId: string, status: number, body: string | undefined, rate: RateDecision | undefined, extra?: Record<string, string>): Outgoing {
  const headers: OutgoingHttpHeaders = { 'X-Request-ID': requestId };
  if (rate) {
    headers['X-RateLimit-Limit'] = String(rate.limit);
    headers['X-RateLimit-Remaining'] = String(rate.remaining);
    headers['X-RateLimit-Reset'] = String(rate.reset);
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (extra) Object.assign(headers, extra);
  return { status, headers, body };
}

/** Problem details for an error. */
export function failure(requestId: string, error: ProblemError): Outgoing {
  return {
    status: error.status,
    headers: { 'X-Request-ID': requestId, 'Content-Type': 'application/problem+json', ...error.headers },
    body: problemBody(error.status, error.code, error.detail, requestId, error.extra),
  };
}
