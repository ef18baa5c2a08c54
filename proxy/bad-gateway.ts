/**
 * The only answers the proxy makes itself, problem details (Errors: `application/problem+json` with
 * type, title, status, detail, request_id, code): 502 `upstream_unreachable` when the upstream cannot
 * be reached or ends the connection without an answer, 504 `upstream_timeout` when it does not answer
 * within the proxy's upstream timeout (`--upstream-timeout`).
 */
import { randomBytes } from 'node:crypto';

/** The error of an upstream that did not answer (or went silent) for `ms` milliseconds (forward.ts). */
export class UpstreamTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/** The 502 (504 for an UpstreamTimeout) answer's status, headers and body for the error that prevented forwarding. */
export function badGateway(error: Error): { status: number; headers: Record<string, string>; body: string } {
  const requestId = `proxy_${randomBytes(8).toString('hex')}`;
  const timeout = error instanceof UpstreamTimeout;
  const code = timeout ? 'upstream_timeout' : 'upstream_unreachable';
  const status = timeout ? 504 : 502;
  const body = JSON.stringify({
    type: `urn:mms-conformance:proxy/${code}`,
    title: timeout ? 'Gateway Timeout' : 'Bad Gateway',
    status,
    detail: timeout
      ? `The upstream did not answer the validating proxy within ${error.ms} ms (--upstream-timeout).`
      : `The validating proxy could not reach its upstream: ${(error as NodeJS.ErrnoException).code ?? error.message}.`,
    request_id: requestId,
    code,
  });
  return { status, headers: { 'content-type': 'application/problem+json', 'content-length': String(Buffer.byteLength(body)), 'x-request-id': requestId }, body };
}

/** The same answer as raw HTTP/1.1 bytes, for connections node:http no longer serves. */
export function badGatewayBytes(error: Error): Buffer {
  const { status, headers, body } = badGateway(error);
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return Buffer.from(`HTTP/1.1 ${status} ${status === 504 ? 'Gateway Timeout' : 'Bad Gateway'}\r\n${head}connection: close\r\n\r\n${body}`);
}
