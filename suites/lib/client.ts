/**
 * The suite's API client over Playwright's APIRequestContext (the `request` fixture, no browser).
 *
 * Every response is recorded as evidence (secrets redacted) and passes through the universal checks. A
 * failed check is recorded in the session (`checkFailures`, with its exchange) and fails only the check's
 * own requirement (docs/design.md §6) — never the test, whose tagged requirements its own assertions decide.
 * Each response remembers its exchange: reading it while the test still passes marks that exchange as
 * the one the next assertion looks at (`lastRead`), the evidence of a failing assertion. Requests of a
 * key pool are paced by the rate-limit headers, and a 429 is retried after `Retry-After` and noted in
 * the evidence.
 */
import { arrangingNow } from './arrange.ts';
import type { APIRequestContext, APIResponse } from '@playwright/test';
import { runChecks, type CheckState } from '../../contract/checks/registry.ts';
import { operationFor } from '../../contract/spec-index.ts';
import { buildExchange, MAX_BODY_CHARS, type CheckFailure, type Exchange, type ExchangeInput } from '../../contract/exchange.ts';
import type { RateGovernor } from './pacing.ts';
import type { Redactor } from './redact.ts';

type QueryValue = string | number | boolean | undefined | Array<string | number>;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** A JSON body (sent with Content-Type: application/json). */
  json?: unknown;
  /** A raw body (give its Content-Type in `headers`). */
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export interface ApiResponse<T = unknown> {
  status: number;
  /** Lowercased response headers. */
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined. */
  body: T;
  text: string;
  exchange: Exchange;
}

/** How a client authenticates: a pool of keys (paced), one fixed key, or a literal header (or none). */
export type Credentials = { pool: string[]; offset: number } | { key: string } | { header: string | null };

/** What all clients of one test share: where, what to record, how to check. */
export interface ClientSession {
  request: APIRequestContext;
  baseUrl: string;
  governor: RateGovernor;
  redactor: Redactor;
  checkState: CheckState;
  exchanges: Exchange[];
  checkFailures: Array<CheckFailure & { exchange: number }>;
  /** Whether to pace and retry 429s (off for the rate-limit tests, which want the raw answers). */
  pace: boolean;
  /** Index in `exchanges` of the last response the test read while it still passed (-1: none). */
  lastRead: number;
  /** Whether the test still passes (reads after a failure, by cleanups, do not move `lastRead`). */
  stillPassing: () => boolean;
  /** Whether a response set a cookie (the request context is the worker's: the session clears them at the test's end). */
  cookiesSet: boolean;
  /** A request's timeout, in ms: half the test's (the `settings` option's testTimeout), at most 30 s (requestTimeoutOf). */
  requestTimeoutMs: number;
}

/** A request's timeout for a test timeout, in ms: half of it, at most 30 s. */
export function requestTimeoutOf(testTimeoutMs: number): number {
  return Math.min(30_000, Math.floor(testTimeoutMs / 2));
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function truncate(text: string): string {
  return text.length > MAX_BODY_CHARS ? `${text.slice(0, MAX_BODY_CHARS)}… (${text.length} characters)` : text;
}

/**
 * The error a failed request (timeout, reset, unparsable answer) throws, as a new Error whose message
 * and stack passed the redactor: Playwright's message carries its call log, with the request's
 * `authorization` header in full. The original is not kept as `cause` (it would be printed). The stack
 * is `origin`'s (an Error made where the request was sent) without Node's and Playwright's own frames,
 * as Playwright would give it, else the original's.
 */
export function redactedError(error: unknown, redactor: Redactor, request: string, origin?: Error): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const out = new Error(redactor.text(`${request}: ${original.message}`));
  out.name = original.name;
  const frames = (origin?.stack ?? original.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l) && !(origin && /\(node:|\bat node:|[\\/]node_modules[\\/](playwright|@playwright)/.test(l)));
  out.stack = redactor.text(`${out.name}: ${out.message}\n${frames.join('\n')}`);
  return out;
}

/**
 * Runs `call` (Playwright API calls) from a task of its own, where the stack holds a few frames only.
 * Playwright captures the caller's stack (up to 50 frames) on every API call for its step's location,
 * each frame source-mapped: under a test's frames that cost more CPU per request than the request itself
 * against the embedded mock (docs/history.md, "The suite's fixed costs"). The step still belongs to the
 * test (the async context carries over); its location stays in this file.
 */
function sentFromOwnTask<T>(call: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => setImmediate(() => call().then(resolve, reject)));
}

/**
 * The response as the test sees it: reading any member marks its exchange (`index` in the session's
 * exchanges) as the one looked at.
 */
export function tracked<T>(session: ClientSession, index: number, values: ApiResponse<T>): ApiResponse<T> {
  const out = {} as ApiResponse<T>;
  for (const [name, value] of Object.entries(values)) {
    Object.defineProperty(out, name, {
      enumerable: true,
      get() {
        if (session.stillPassing()) session.lastRead = index;
        return value;
      },
    });
  }
  return out;
}

export class ApiClient {
  constructor(readonly session: ClientSession, readonly credentials: Credentials) {}

  /** A client of the same session with other credentials. */
  with(credentials: Credentials): ApiClient {
    return new ApiClient(this.session, credentials);
  }

  get<T = unknown>(path: string, options?: RequestOptions) { return this.send<T>('GET', path, options); }
  post<T = unknown>(path: string, options?: RequestOptions) { return this.send<T>('POST', path, options); }
  put<T = unknown>(path: string, options?: RequestOptions) { return this.send<T>('PUT', path, options); }
  patch<T = unknown>(path: string, options?: RequestOptions) { return this.send<T>('PATCH', path, options); }
  delete<T = unknown>(path: string, options?: RequestOptions) { return this.send<T>('DELETE', path, options); }

  /**
   * Sends a request. `path` is relative to the API base (`/meters`) or an absolute URL (a
   * `nextPageUrl`). Universal check failures are recorded in the session, never thrown.
   */
  async send<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const s = this.session;
    const url = new URL(/^https?:/.test(path) ? path : `${s.baseUrl}${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const item of v) url.searchParams.append(k, String(item));
      else url.searchParams.set(k, String(v));
    }
    const retries: Exchange['retries'] = [];
    let resentOnce = false;
    for (let attempt = 0; ; attempt++) {
      const { header, key, waitMs } = this.authorization();
      if (waitMs > 0) {
        retries.push({ status: 0, waitedSeconds: waitMs / 1000 });
        await sleep(waitMs);
      }
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (header !== null) headers.authorization = header;
      // A string body goes as bytes: Playwright would JSON-encode a string that does not parse as JSON
      // under a JSON Content-Type, so a malformed body would arrive as a well-formed JSON string.
      let data: string | Buffer | undefined = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
      if (options.json !== undefined) {
        data = JSON.stringify(options.json);
        headers['content-type'] ??= 'application/json';
      }
      const started = Date.now();
      const startedAt = new Date(started).toISOString();
      let response: APIResponse;
      let buffer: Buffer;
      // The stack of a failed request, as Playwright would give it: where the test sent it (formatted only then).
      const origin = new Error();
      try {
        [response, buffer] = await sentFromOwnTask(async () => {
          const answer = await s.request.fetch(url.toString(), { method, headers, data, failOnStatusCode: false, maxRedirects: 0, timeout: s.requestTimeoutMs });
          return [answer, await answer.body()] as const;
        });
      } catch (e) {
        // A reused keep-alive connection the server closed as the request left (RFC 9112 §9.3.1) carries no
        // answer: a safe method is sent again once, as HTTP clients do (RFC 9110 §9.2.2), and noted.
        if ((method === 'GET' || method === 'HEAD') && !resentOnce && /ECONNRESET|socket hang up/.test(String((e as Error)?.message))) {
          resentOnce = true;
          retries.push({ status: 0, waitedSeconds: 0 });
          continue;
        }
        const error = redactedError(e, s.redactor, `${method} ${s.redactor.text(url.toString())}`, origin);
        // No answer (timeout, reset, garbage): the request is the evidence, status 0 as in HAR; no check runs on it.
        s.exchanges.push({ ...this.exchangeOf(method, url, headers, data, { status: 0, responseHeaders: {}, responseBody: '', durationMs: Date.now() - started, startedAt, retries }), error: error.message.split('\n')[0] });
        if (s.stillPassing()) s.lastRead = s.exchanges.length - 1;
        throw error;
      }
      const responseHeaders = response.headers();
      if (responseHeaders['set-cookie'] !== undefined) s.cookiesSet = true;
      const text = buffer.toString('utf8');
      if (key) s.governor.observe(key, responseHeaders);
      if (response.status() === 429 && s.pace && key && attempt < 3) {
        const wait = Math.min(61, Math.max(1, Number(responseHeaders['retry-after']) || 1));
        s.governor.spent(key, wait);
        retries.push({ status: 429, waitedSeconds: wait });
        if ('pool' in this.credentials && this.credentials.pool.length > 1) continue;
        await sleep(wait * 1000);
        continue;
      }
      const exchange = this.exchangeOf(method, url, headers, data, { status: response.status(), responseHeaders, responseText: text, responseBody: truncate(s.redactor.text(text)), durationMs: Date.now() - started, startedAt, retries });
      s.exchanges.push(exchange);
      this.check(exchange);
      return tracked<T>(s, s.exchanges.length - 1, { status: exchange.status, headers: responseHeaders, body: exchange.json as T, text, exchange });
    }
  }

  /** The exchange of a request (redacted; `credential` names the profile key it carried) and its answer (contract/exchange.ts). */
  private exchangeOf(method: string, url: URL, headers: Record<string, string>, data: string | Buffer | undefined, answer: Pick<ExchangeInput, 'status' | 'responseHeaders' | 'responseText' | 'responseBody' | 'durationMs' | 'startedAt' | 'retries'>): Exchange {
    const s = this.session;
    const header = headers.authorization;
    const credential = header === undefined ? undefined : s.redactor.envName(header);
    const arranging = arrangingNow();
    return buildExchange({
      ...(arranging === undefined ? {} : { arranging }),
      method,
      url: s.redactor.text(url.toString()),
      pathname: url.pathname,
      basePath: new URL(s.baseUrl).pathname.replace(/\/$/, ''),
      requestHeaders: s.redactor.value(headers),
      requestBody: data === undefined ? undefined : truncate(s.redactor.text(typeof data === 'string' ? data : data.length > 2000 ? `<${data.length} bytes>` : data.toString('utf8'))),
      ...answer,
      ...(credential ? { credential } : {}),
    }, operationFor);
  }

  private authorization(): { header: string | null; key?: string; waitMs: number } {
    const c = this.credentials;
    if ('header' in c) return { header: c.header, waitMs: 0 };
    if ('key' in c) return { header: `Bearer ${c.key}`, key: c.key, waitMs: 0 };
    if (!this.session.pace) return { header: `Bearer ${c.pool[0]}`, key: c.pool[0], waitMs: 0 };
    const { key, waitMs } = this.session.governor.choose(c.pool, c.offset);
    return { header: `Bearer ${key}`, key, waitMs };
  }

  /** Runs the universal checks on the exchange just recorded; records what they find. */
  private check(x: Exchange): void {
    const s = this.session;
    const exchange = s.exchanges.length - 1;
    for (const failure of runChecks(x, s.checkState)) s.checkFailures.push({ ...failure, exchange });
  }
}
