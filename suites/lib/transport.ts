/**
 * How the suite's client puts a request on the wire. Node's own fetch (undici, keep-alive connections)
 * by default: Playwright's request context (the `request` fixture) costs each request two calls through
 * its protocol, each capturing and source-mapping a 50-frame stack, and that was a third of a worker's
 * CPU (bench/README.md, "where the suite's time goes"). Playwright's context remains for what Node's
 * fetch cannot send or the profile asks for: a proxy or TLS without verification (docs/design.md §3,
 * contract/profile.ts requestUse), the methods fetch forbids (TRACE, TRACK, CONNECT) and a GET or HEAD
 * with a body. MMS_TRANSPORT=playwright sends everything through Playwright.
 */
import type { APIRequestContext } from '@playwright/test';
import type { TargetProfile } from '../../contract/profile.ts';

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  data?: string | Buffer;
  /** Milliseconds until the request is abandoned. */
  timeout: number;
}

export interface WireResponse {
  status: number;
  /** Lowercased names. */
  headers: Record<string, string>;
  body: Buffer;
}

export type Transport = (request: WireRequest) => Promise<WireResponse>;

/** Methods Node's fetch refuses to send (Fetch standard, forbidden methods). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Sends through a Playwright request context, created on first use (no redirects followed, any status accepted). */
export function playwrightTransport(context: () => Promise<APIRequestContext>): Transport {
  return async ({ method, url, headers, data, timeout }) => {
    const response = await (await context()).fetch(url, { method, headers, data, failOnStatusCode: false, maxRedirects: 0, timeout });
    return { status: response.status(), headers: response.headers(), body: await response.body() };
  };
}

/**
 * Sends through Node's fetch with the profile's extra headers (never its authorization), falling back
 * to `fallback` for requests fetch cannot send. Redirects are not followed; network failures reject
 * with an Error naming their cause (`fetch failed: ECONNREFUSED`), a timeout with a TimeoutError.
 */
export function nodeTransport(extraHeaders: Record<string, string>, fallback: Transport): Transport {
  const extra = Object.entries(extraHeaders);
  return async (r) => {
    const upper = r.method.toUpperCase();
    if (FORBIDDEN_METHODS.has(upper) || ((upper === 'GET' || upper === 'HEAD') && r.data !== undefined)) return fallback(r);
    const headers: Record<string, string> = {};
    for (const [name, value] of extra) if (!Object.keys(r.headers).some((n) => n.toLowerCase() === name.toLowerCase())) headers[name] = value;
    Object.assign(headers, r.headers);
    let response: Response;
    try {
      response = await fetch(r.url, { method: r.method, headers, body: r.data, redirect: 'manual', signal: AbortSignal.timeout(r.timeout) });
    } catch (e) {
      const error = e as Error & { cause?: { code?: string; message?: string } };
      // A request fetch refuses to build (a header value it rejects): Playwright sends it as it is.
      if (error.name === 'TypeError' && error.message !== 'fetch failed') return fallback(r);
      if (error.cause) throw new Error(`${error.message}: ${error.cause.code ?? error.cause.message}`);
      throw error;
    }
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    return { status: response.status, headers: out, body: Buffer.from(await response.arrayBuffer()) };
  };
}

/**
 * The transport for a profile: Node's fetch unless it needs a proxy or unverified TLS (or
 * MMS_TRANSPORT=playwright). `context` gives the Playwright request context (with the profile's
 * request options, contract/profile.ts requestUse) when one is needed.
 */
export function transportFor(profile: Pick<TargetProfile, 'headers' | 'tls' | 'proxy'>, context: () => Promise<APIRequestContext>): Transport {
  const viaPlaywright = playwrightTransport(context);
  if (process.env.MMS_TRANSPORT === 'playwright' || profile.proxy || profile.tls?.insecure) return viaPlaywright;
  const extra = Object.fromEntries(Object.entries(profile.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization'));
  return nodeTransport(extra, viaPlaywright);
}
