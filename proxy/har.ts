/**
 * The exchanges the proxy relayed, as a HAR 1.2 document (`proxy --har FILE`; docs/integrators.md,
 * "A verdict on your client"): what `client-report --har` judges a client by, for traffic to any
 * implementation. Bounded (the first `max` exchanges, bodies as far as the proxy captured them); API
 * keys are masked in headers, URLs and bodies (contract/client/traffic.ts `maskKeys`).
 */
import { maskKeys } from '../contract/client/traffic.ts';
import type { ObservedExchange } from './forward.ts';

/** The most exchanges a HAR keeps (later ones are counted in `log.comment`). */
export const HAR_MAX_ENTRIES = 10_000;

const headerList = (raw: string[]) => {
  const out: Array<{ name: string; value: string }> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push({ name: raw[i]!, value: maskKeys(raw[i + 1]!) });
  return out;
};

/** Collects exchanges as HAR entries. */
export class HarRecorder {
  private readonly entries: unknown[] = [];
  private dropped = 0;

  constructor(private readonly upstream: URL, private readonly max = HAR_MAX_ENTRIES) {}

  /** Adds one exchange, answered just now after `durationMs`. */
  add(x: ObservedExchange): void {
    if (this.entries.length >= this.max) {
      this.dropped++;
      return;
    }
    const requestType = headerList(x.requestHeaders).find((h) => h.name.toLowerCase() === 'content-type')?.value;
    const responseType = headerList(x.responseHeaders).find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
    const request = x.requestBody.bytes();
    const response = x.responseBody.bytes();
    this.entries.push({
      startedDateTime: new Date(Date.now() - x.durationMs).toISOString(),
      time: x.durationMs,
      request: {
        method: x.method, url: maskKeys(`${this.upstream.origin}${x.target}`), httpVersion: 'HTTP/1.1', cookies: [], headers: headerList(x.requestHeaders), queryString: [], headersSize: -1, bodySize: x.requestBody.length,
        ...(x.requestBody.length > 0 && { postData: { mimeType: requestType ?? '', text: maskKeys(request.toString('utf8')) } }),
      },
      response: {
        status: x.status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: headerList(x.responseHeaders), redirectURL: '', headersSize: -1, bodySize: x.responseBody.length,
        content: { size: x.responseBody.length, mimeType: responseType, text: maskKeys(response.toString('utf8')), ...(x.responseBody.truncated && { comment: 'cut at the proxy\'s capture limit' }) },
      },
      cache: {},
      timings: { send: 0, wait: x.durationMs, receive: 0 },
    });
  }

  /** The HAR document of every exchange added so far. */
  document(): object {
    return { log: { version: '1.2', creator: { name: 'mms-conformance proxy', version: '1' }, ...(this.dropped > 0 && { comment: `${this.dropped} later exchanges not kept (at most ${this.max})` }), entries: this.entries } };
  }
}
