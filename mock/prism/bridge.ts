/**
 * Stage prism (docs/design.md §4, layer 6): a request that asks for Prism's generated response (`Prefer`,
 * or `__code`-style query names) or whose operation has no handler is answered by Prism
 * (fallback.ts), in a worker thread of its own (thread.ts). Prism takes a second to load: the server
 * preloads it right after start (`preload`), and it loads in that thread, so no request stalls. A
 * `Prefer` request's body is read, typed (415) and validated (400) like any other before Prism sees
 * it. An error status asked for is answered as the mock's own problem details (`problemAnswer`)
 * without loading Prism, never with Prism's generated body.
 */
import type { HandlerMap } from '../http/context.ts';
import { isJson, mediaType, parseJson, readBody } from '../http/body.ts';
import { ProblemError, invalid, validationError } from '../http/problem.ts';
import { failure, success, type Outgoing } from '../http/send.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { ANSWERED, type Step } from '../pipeline/stages.ts';
import { askedProblem, preferences, wantsPrism } from './preferences.ts';
import { prismThread } from './thread.ts';

/** The prism step, with `preload()`: loads Prism (once) and resolves when it is ready. */
export type PrismStep = Step & { preload(): Promise<unknown> };

/** The prism step: `send` writes Prism's answer; bodies are read up to `maxBytes` (default 1 MiB). */
export function prismStep(handlers: HandlerMap, send: (ex: Exchange, out: Outgoing) => void, maxBytes?: number): PrismStep {
  const step: Step = (ex: Exchange) => {
    const prefer = ex.req.headers.prefer as string | undefined;
    if (prefer === undefined && !(mayNamePrism(ex.search) && namesPrismQuery(ex.query)) && handlers[ex.op.operationId]) return;
    const asked = wantsPrism(prefer, ex.query);
    if (!asked && handlers[ex.op.operationId]) return;
    return viaPrism(ex, asked, send, maxBytes);
  };
  return Object.assign(step, { preload: prismThread });
}

/** The request body as Prism gets it: JSON bodies typed (415), parsed (400) and validated against the spec (400). */
function preparedBody(ex: Exchange, raw: Buffer): unknown {
  if (!raw.length) return undefined;
  const type = mediaType(ex.req.headers['content-type']);
  if (!ex.op.requestBody!.mediaTypes.includes('application/json')) return raw.toString('latin1');
  if (!isJson(type)) throw new ProblemError(415, 'unsupported_media_type', `Send this body as application/json (got ${type ?? 'no Content-Type'}).`);
  const body = parseJson(raw);
  const errors = ex.validator?.validateBody?.(body) ?? [];
  if (errors.length) throw validationError(errors);
  return body;
}

/**
 * Prism's answer. When the request asked for it (`asked`), an answer Prism cannot produce (say, for an
 * `Accept` no documented response has) is the request's problem: 400 on its preference, never a 5xx.
 */
async function viaPrism(ex: Exchange, asked: boolean, send: (ex: Exchange, out: Outgoing) => void, maxBytes?: number): Promise<typeof ANSWERED> {
  const req = ex.req;
  try {
    const raw = ex.op.requestBody ? await readBody(req, maxBytes) : (req.resume(), Buffer.alloc(0));
    const body = preparedBody(ex, raw);
    requireMediaRanges(req.headers.accept);
    // An error status asked for needs no Prism: the mock's own problem details.
    const problem = askedProblem(ex.op, preferences(req.headers.prefer as string | undefined, ex.query));
    if (problem) {
      send(ex, failure(ex.requestId, problemAnswer(ex, problem.status, problem.code)));
      return ANSWERED;
    }
    const prism = await prismThread();
    // A plain copy of the query (parseQuery's has no prototype, which Prism may not expect; the route
    // stage's is frozen, pipeline/route.ts).
    const query = Object.fromEntries(Object.entries(ex.query).map(([name, values]) => [name, [...values]]));
    const out = await prism.respond(ex.op.operationId, { method: ex.method, path: ex.path.slice(3), query, headers: req.headers, body });
    if (out.problem) {
      send(ex, failure(ex.requestId, problemAnswer(ex, out.problem.status, out.problem.code)));
      return ANSWERED;
    }
    const reply: Outgoing = success(ex.requestId, out.status, withRequestId(out.body, ex.requestId), out.status < 300 ? ex.rate : undefined);
    if (out.contentType) reply.headers['Content-Type'] = out.contentType;
    send(ex, reply);
    return ANSWERED;
  } catch (error) {
    if (asked && error instanceof ProblemError && error.status >= 500) {
      throw invalid('header', 'Prefer', `asks for an answer Prism cannot produce: ${error.detail}`);
    }
    throw error;
  }
}

/**
 * A generated JSON body whose envelope has `meta.request_id` (docs/api-v1.md, the response envelopes;
 * a problem's `request_id` "equals the `X-Request-ID` response header") carries the answer's own
 * `X-Request-ID`, not Prism's invented string; any other body is left as it is.
 */
export function withRequestId(body: string | undefined, requestId: string): string | undefined {
  if (body === undefined || !body.includes('"request_id"')) return body;
  try {
    const parsed = JSON.parse(body) as { meta?: { request_id?: unknown } };
    if (!parsed || typeof parsed.meta !== 'object' || parsed.meta === null || !('request_id' in parsed.meta)) return body;
    parsed.meta.request_id = requestId;
    return JSON.stringify(parsed);
  } catch {
    return body;
  }
}

/**
 * The problem details of an error status the request asked for (Errors): the mock's own vocabulary,
 * `Retry-After` on 429 (Limits; the key's real wait, at least 1 s), an `errors` member naming `Prefer`
 * on 400; no `X-RateLimit-*` (successes only).
 */
function problemAnswer(ex: Exchange, status: number, code: string): ProblemError {
  const detail = `Answered ${status} because the request asked for it (Prefer: code=${status}); no state of the mock was checked.`;
  const extra = status === 400 ? { errors: [{ in: 'header', name: 'Prefer', message: `asks for code=${status}` }] } : {};
  const headers: Record<string, string> = status === 429 ? { 'Retry-After': String(ex.rate?.retryAfter ?? 60) } : {};
  return new ProblemError(status, code, detail, extra, headers);
}

const MEDIA_RANGE = /^\s*[A-Za-z0-9!#$%&'*+.^_`|~-]+\/[A-Za-z0-9!#$%&'*+.^_`|~-]+\s*(;.*)?$/;

/**
 * An `Accept` Prism can negotiate: absent, or a list of `type/subtype` media ranges (RFC 9110 §12.5.1).
 * Prism's negotiator looks other values up as object keys (`constructor`, `__proto__`) and fails or never
 * answers; the request gets 400 naming the header instead. Throws ProblemError.
 */
function requireMediaRanges(accept: string | undefined): void {
  if (accept === undefined || accept.split(',').every((range) => MEDIA_RANGE.test(range))) return;
  throw invalid('header', 'Accept', 'is not a list of media ranges (type/subtype)');
}

/** A cheap pre-check on the raw query string: `__`, possibly percent-encoded, occurs in it. */
function mayNamePrism(search: string): boolean {
  return search.includes('__') || search.includes('%5F') || search.includes('%5f');
}

/**
 * Whether the query names one of Prism's fallbacks (`__code`, `__example`, `__dynamic`, `__seed`; all
 * start with `__`): a necessary condition of `wantsPrism`, checked before Prism is loaded.
 */
function namesPrismQuery(query: Record<string, string[]>): boolean {
  for (const name in query) if (name.startsWith('__')) return true;
  return false;
}
