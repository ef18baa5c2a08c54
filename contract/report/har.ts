/**
 * `reports/exchanges.har` (docs/vendors.md, "Reading a report"): the run's recorded exchanges — the evidence each test
 * kept (every exchange a failure looked at, and those before a failing assertion) — as HAR 1.2
 * (http://www.softwareishard.com/blog/har-12-spec/), already redacted like all evidence. A request that
 * got no answer has status 0 and its error in the entry's `comment`. Each entry's `comment` names the test,
 * and for a response the test borrowed from another test of its worker (a shared sample,
 * suites/lib/response-samples.ts), the test that sent it.
 */
import type { EvidenceRecord } from '../exchange.ts';
import type { TestOutcome } from './model.ts';

type Recorded = EvidenceRecord['exchanges'][number];

const STATUS_TEXT: Record<number, string> = {
  0: '', 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable',
  409: 'Conflict', 412: 'Precondition Failed', 413: 'Content Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content',
  429: 'Too Many Requests', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

const headerList = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => ({ name, value }));

function entry(x: Recorded, test: string) {
  const url = new URL(x.url);
  const requestType = Object.entries(x.requestHeaders).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? 'application/octet-stream';
  const bodySize = x.requestBody === undefined ? 0 : Buffer.byteLength(x.requestBody);
  return {
    startedDateTime: x.startedAt ?? new Date(0).toISOString(),
    time: x.durationMs,
    request: {
      method: x.method,
      url: x.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(x.requestHeaders),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(x.requestBody !== undefined ? { postData: { mimeType: requestType, text: x.requestBody } } : {}),
      headersSize: -1,
      bodySize,
    },
    response: {
      status: x.status,
      statusText: STATUS_TEXT[x.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(x.responseHeaders),
      content: { size: Buffer.byteLength(x.responseBody), mimeType: x.responseHeaders['content-type'] ?? 'x-unknown', text: x.responseBody },
      redirectURL: x.responseHeaders.location ?? '',
      headersSize: -1,
      bodySize: x.status === 0 ? -1 : Buffer.byteLength(x.responseBody),
    },
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    comment: `${test}${x.sentBy ? ` (sent by ${x.sentBy})` : ''}${x.error ? ` — no response: ${x.error}` : ''}`,
  };
}

/** The HAR document of the tests' evidence, entries in the order they were sent. */
export function renderHar(outcomes: TestOutcome[], creator: { name: string; version: string }): string {
  const entries = outcomes
    .flatMap((o) => (o.evidence?.exchanges ?? []).map((x) => entry(x, o.title)))
    .sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  return `${JSON.stringify({ log: { version: '1.2', creator, entries } }, null, 2)}\n`;
}
