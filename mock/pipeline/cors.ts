/**
 * CORS for the API (on by default, like `prism mock`; `--no-cors` turns it off), so browser-based
 * integrators can call the mock: every `/v1` answer carries `Access-Control-Allow-Origin: *` (no
 * credentials: the API authenticates with bearer keys, not cookies) and exposes the headers the
 * description gives meaning to (Limits: X-Request-ID, X-RateLimit-*, Retry-After). A preflight
 * (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 right after the `/v1` check, before
 * authentication: it carries no Authorization. A plain `OPTIONS` stays 405. The control API never gets
 * CORS headers: web pages must not reach it.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { Outgoing } from '../http/send.ts';
import type { Exchange } from './exchange.ts';
import { ANSWERED, type Step } from './stages.ts';

/** On every API answer. */
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'X-Request-ID, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
} as const;

/** On a preflight's 204 (besides CORS_HEADERS). Max-Age: two hours, the most Chromium honours. */
export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Prefer',
  'Access-Control-Max-Age': '7200',
} as const;

/** `step` followed by the preflight answer (204 for an `OPTIONS` with `Access-Control-Request-Method`). */
export function withPreflight(step: Step, send: (ex: Exchange, out: Outgoing) => void): Step {
  return (ex: Exchange) => {
    step(ex);
    if (ex.req.method !== 'OPTIONS' || ex.req.headers['access-control-request-method'] === undefined) return;
    const headers: OutgoingHttpHeaders = { 'X-Request-ID': ex.requestId, ...PREFLIGHT_HEADERS };
    send(ex, { status: 204, headers });
    return ANSWERED;
  };
}

/** Adds CORS_HEADERS to an API answer (never to the control API's). */
export function addCorsHeaders(out: Outgoing, ex: Exchange): void {
  if (ex.path.startsWith('/__mock/')) return;
  out.headers['Access-Control-Allow-Origin'] = CORS_HEADERS['Access-Control-Allow-Origin'];
  out.headers['Access-Control-Expose-Headers'] = CORS_HEADERS['Access-Control-Expose-Headers'];
}
