/**
 * The only answer the proxy makes itself: 502 problem details (Errors: `application/problem+json`
 * with type, title, status, detail, request_id, code) when the upstream cannot be reached.
 */
import { randomBytes } from 'node:crypto';

/** The 502 answer's headers and body for the error that prevented forwarding. */
export function badGateway(error: Error): { headers: Record<string, string>; body: string } {
  const requestId = `proxy_${randomBytes(8).toString('hex')}`;
  const code = 'upstream_unreachable';
  const body = JSON.stringify({
    type: `urn:mms-conformance:proxy/${code}`,
    title: 'Bad Gateway',
    status: 502,
    detail: `The validating proxy could not reach its upstream: ${(error as NodeJS.ErrnoException).code ?? error.message}.`,
    request_id: requestId,
    code,
  });
  return { headers: { 'content-type': 'application/problem+json', 'content-length': String(Buffer.byteLength(body)), 'x-request-id': requestId }, body };
}

/** The same answer as raw HTTP/1.1 bytes, for connections node:http no longer serves. */
export function badGatewayBytes(error: Error): Buffer {
  const { headers, body } = badGateway(error);
  const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return Buffer.from(`HTTP/1.1 502 Bad Gateway\r\n${head}connection: close\r\n\r\n${body}`);
}
