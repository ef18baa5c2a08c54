/**
 * Who may use the control API (docs/integrators.md, "The control API"). Every `/__mock/` request must carry
 * the per-process token in `X-Mock-Control-Token` (else 401), name a loopback Host (`127.0.0.1`,
 * `localhost`, `[::1]`, with or without a port) unless the mock listens on a non-loopback address (else
 * 403: a DNS-rebinding page names its own host), and send any body as `application/json` (else 415: a
 * cross-site form or `text/plain` request cannot set it without a CORS preflight, which fails).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { announcesBody, mediaType } from '../http/body.ts';
import { ProblemError } from '../http/problem.ts';

/** The request header that carries the control token. */
export const CONTROL_TOKEN_HEADER = 'X-Mock-Control-Token';

/**
 * The environment variable `npm run mock` takes its token from when `--control-token` is not given;
 * fixtures/targets/mock.json names it (`env:MMS_MOCK_CONTROL_TOKEN`).
 */
export const CONTROL_TOKEN_ENV = 'MMS_MOCK_CONTROL_TOKEN';

/** A fresh random control token (32 bytes, base64url: 43 characters). */
export function newControlToken(): string {
  return randomBytes(32).toString('base64url');
}

const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i;

/** Whether an address to listen on is loopback only (127.0.0.0/8, `localhost`, `::1`). */
export function isLoopbackAddress(host: string): boolean {
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === 'localhost' || host === '::1' || host === '[::1]';
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The guard of the control API: returns the problem to answer, or undefined when the request may pass.
 * `anyHost` (non-loopback bind with a token given) lifts the Host check; the token is always required.
 */
export function controlGuard(token: string, anyHost: boolean): (req: IncomingMessage) => ProblemError | undefined {
  const expected = digest(token);
  return (req) => {
    const host = req.headers.host ?? '';
    if (!anyHost && !LOOPBACK_HOST.test(host)) {
      return new ProblemError(403, 'forbidden', 'The control API answers only requests addressed to a loopback Host (127.0.0.1, localhost, [::1]).');
    }
    const given = req.headers['x-mock-control-token'];
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      return new ProblemError(401, 'invalid_control_token', `The control API needs the mock's token in ${CONTROL_TOKEN_HEADER} (printed at start; in the target profile as control.token).`);
    }
    if (announcesBody(req) && mediaType(req.headers['content-type']) !== 'application/json') {
      return new ProblemError(415, 'unsupported_media_type', 'Control API bodies are application/json.');
    }
    return undefined;
  };
}
