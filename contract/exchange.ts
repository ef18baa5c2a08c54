/**
 * One request and its response as the suite records them: the evidence of the report (docs/design.md §6).
 * Bodies are kept as text, truncated; secrets are redacted before anything leaves the worker.
 */
import type { Operation } from './openapi.ts';

export interface Exchange {
  method: string;
  url: string;
  /** Path relative to the API base, without query string ("/meters/abc"). */
  path: string;
  operation?: Operation;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  /** The parsed JSON body, when the response had one. */
  json?: unknown;
  durationMs: number;
  /** Why no response came (timeout, reset, unparsable answer; redacted), with `status` 0. */
  error?: string;
  /** When the request was sent (ISO 8601). */
  startedAt?: string;
  /**
   * The variable naming the profile key the request's Authorization header carried (`MMS_KEY_LIVE`,
   * suites/lib/redact.ts secretEnvNames), for reproductions; absent without a key of the profile.
   */
  credential?: string;
  /** Whether the request carried credentials of the target. */
  authenticated: boolean;
  /** 429s retried before this response, with the seconds waited; status 0: a wait for the rate budget, or a reset connection resent. */
  retries: Array<{ status: number; waitedSeconds: number }>;
  /**
   * The test that sent this request, when this test judged a response another test of its worker sent
   * (a shared sample, suites/lib/response-samples.ts): kept as this test's evidence, counted among the
   * sender's requests only.
   */
  sentBy?: string;
  /**
   * The arranging step that sent this request (suites/lib/arrange.ts `arrange`: "create a meter (POST
   * /meters)"), absent for the requests a test acts and asserts with.
   */
  arranging?: string;
}

/**
 * A failed universal check: the check's name, the requirement it proves, what it saw, and where — the
 * operation and status of the exchange and `at`, a JSON pointer into the body or a header name. Those
 * four with the check make its signature: one root cause of the report (docs/design.md §6).
 */
export interface CheckFailure {
  check: string;
  requirement: string;
  message: string;
  operationId?: string;
  status?: number;
  at?: string;
  /**
   * The rule the finding breaks, without where it was seen (operation, status, array index): findings
   * of one rule are one root cause (suites/reporter/root-causes.ts). Absent: the check and message.
   */
  rule?: string;
}

/**
 * What a reporter attachment of a test carries: the exchanges kept as evidence (those a check failure
 * or the failing assertion looked at, and a few before the latter; a borrowed one names its sender in
 * `sentBy`), the check failures with the index of their exchange in `exchanges` (-1: not kept),
 * `failedExchange`, the index of the exchange whose response the test read last before it failed, and
 * `requests`, how many requests the test itself sent (borrowed exchanges are not among them).
 */
export interface EvidenceRecord {
  exchanges: Array<Omit<Exchange, 'operation' | 'json'> & { operationId?: string }>;
  checkFailures: Array<CheckFailure & { exchange: number }>;
  failedExchange?: number;
  requests: number;
}

/** The raw pieces of one exchange, as the suite's client or the proxy saw them (secrets already redacted where kept). */
export interface ExchangeInput {
  method: string;
  /** The request's URL, absolute, as kept in the evidence. */
  url: string;
  /** The request's path (no query string), raw; `basePath` is the API's base (`/v1`) inside it. */
  pathname: string;
  basePath: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  /** The response body as received, for its JSON (undefined: not parsed, e.g. truncated). */
  responseText?: string;
  /** The response body as kept in the evidence. */
  responseBody: string;
  durationMs: number;
  startedAt?: string;
  retries?: Exchange['retries'];
  credential?: string;
}

/** Resolves a request path to the operation it addresses: `(method, path relative to the base) → operation`. */
export type OperationLookup = (method: string, apiPath: string) => Operation | undefined;

/**
 * The one builder of an Exchange, for the suite's client and the proxy: the path relative to the API
 * base and its operation (none outside the base; the checks then keep the URL's whole path), the JSON
 * of a response whose content type says JSON, and whether the request carried a key.
 */
export function buildExchange(input: ExchangeInput, lookup: OperationLookup): Exchange {
  const inside = input.pathname.startsWith(`${input.basePath}/`);
  const path = inside ? input.pathname.slice(input.basePath.length) : input.pathname;
  const text = input.responseText;
  let json: unknown;
  // A JSON body is read as JSON whatever its Content-Type: the type is SPEC-003's and ERR-001's to judge
  // (checks/content-type.ts), not a reason for every test reading the body to fail.
  if (text !== undefined && text.length > 0 && (/json/.test(input.responseHeaders['content-type'] ?? '') || /^\s*[[{]/.test(text))) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  const x: Exchange = {
    method: input.method,
    url: input.url,
    path,
    operation: inside ? lookup(input.method, path) : undefined,
    requestHeaders: input.requestHeaders,
    requestBody: input.requestBody,
    status: input.status,
    responseHeaders: input.responseHeaders,
    responseBody: input.responseBody,
    json,
    durationMs: input.durationMs,
    authenticated: (input.requestHeaders.authorization ?? '').startsWith('Bearer sk_'),
    retries: input.retries ?? [],
  };
  if (input.startedAt !== undefined) x.startedAt = input.startedAt;
  if (input.credential !== undefined) x.credential = input.credential;
  return x;
}

export const EVIDENCE_ATTACHMENT = 'conformance-evidence';
export const MAX_BODY_CHARS = 4000;

/** The root cause a check failure belongs to: check, operation, status and pointer or header name. */
export function checkSignature(f: CheckFailure): string {
  return [f.check, f.operationId ?? '-', f.status ?? '-', f.at ?? ''].join(' ');
}

/** How many exchanges before the one a failing assertion read are kept (folded in the report). */
const EARLIER_KEPT = 6;

/** What `evidenceOf` reads of a test's session: its exchanges, its check failures and the exchange last read (-1: none). */
export interface EvidenceSource {
  exchanges: Exchange[];
  checkFailures: Array<CheckFailure & { exchange: number }>;
  lastRead: number;
}

/**
 * The evidence of one test (docs/design.md §6): every check failure once per exchange (the exchange of the
 * first failure of each signature kept), and for a failed test the exchange its failing assertion read (the session's
 * `lastRead`, else the last one) with up to EARLIER_KEPT exchanges before it.
 */
export function evidenceOf(session: EvidenceSource, failed: boolean): EvidenceRecord {
  const keep = new Set<number>();
  const seen = new Set<string>();
  const failures: EvidenceRecord['checkFailures'] = [];
  for (const f of session.checkFailures) {
    const signature = checkSignature(f);
    if (seen.has(`${signature}#${f.exchange}`)) continue;
    if (!seen.has(signature)) keep.add(f.exchange);
    seen.add(signature).add(`${signature}#${f.exchange}`);
    failures.push(f);
  }
  const looked = failed && session.exchanges.length > 0 ? (session.lastRead >= 0 ? session.lastRead : session.exchanges.length - 1) : -1;
  for (let i = Math.max(0, looked - EARLIER_KEPT); i <= looked; i++) keep.add(i);
  const kept = [...keep].filter((i) => i >= 0 && i < session.exchanges.length).sort((a, b) => a - b);
  const position = new Map(kept.map((original, i) => [original, i]));
  return {
    requests: session.exchanges.filter((x) => x.sentBy === undefined).length,
    exchanges: kept.map((i) => {
      const { operation, json: _json, ...x } = session.exchanges[i]!;
      return { ...x, operationId: operation?.operationId };
    }),
    checkFailures: failures.map((f) => ({ ...f, exchange: position.get(f.exchange) ?? -1 })),
    ...(looked >= 0 ? { failedExchange: position.get(looked)! } : {}),
  };
}
