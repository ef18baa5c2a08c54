/**
 * The validating half of the proxy: judges one observed exchange with the kit's own contract — the
 * compiled router and Ajv validators (contract/) and the suite's universal checks (suites/checks/), the
 * same functions that judge the conformance suite's responses (response media type included).
 *
 * Request side (Errors: "query, JSON, filename or field validation failed" → 400 `validation_error`):
 * a request whose parameters or JSON body the spec rejects (`limit=0x10` is no integer) is an invalid
 * request; the upstream answering it with a success is a violation of ERR-006 (ERR-007 for a body
 * that is not well-formed JSON).
 */
import { parse as parseQueryString } from 'node:querystring';
import { loadOperations } from '../contract/openapi.ts';
import { Router } from '../contract/router.ts';
import { compileRequestValidators, type RequestValidator } from '../contract/validators.ts';
import { CHECKS, type CheckState } from '../suites/checks/registry.ts';
import type { Exchange } from '../suites/lib/exchange.ts';
import type { ObservedExchange } from './forward.ts';
import { headerRecord } from './headers.ts';

/** One problem found in one exchange. */
export interface Finding {
  /** `response`: the upstream broke a requirement; `request`: the client sent what the spec rejects. */
  side: 'response' | 'request';
  check: string;
  requirement: string;
  message: string;
  operation?: string;
  method: string;
  /** The request-target as sent (query included). */
  target: string;
  status: number;
  /** Where: a JSON pointer with array indices as `*`, a header name, a parameter, or empty. */
  location: string;
  requestId?: string;
}

/** Request ids remembered for `requestIdUnique`: the oldest are forgotten beyond this many. */
const REMEMBERED_IDS = 200_000;

/** A Set that forgets its oldest entries beyond a size (a long-running proxy must not grow forever). */
class BoundedSet extends Set<string> {
  constructor(private readonly max: number) {
    super();
  }
  override add(value: string): this {
    if (this.size >= this.max) this.delete(this.values().next().value as string);
    return super.add(value);
  }
}

const isJsonType = (type: string) => /^application\/([\w.+-]+\+)?json$/.test(type);
const mediaOf = (header: string | undefined) => (header ?? '').split(';')[0]!.trim().toLowerCase();

/** Where a check message points: a body pointer (indices generalised), a header, or a parameter. */
export function locationOf(message: string): string {
  const pointer = /body: (\/\S*|\(root\))/.exec(message)?.[1];
  if (pointer) return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
  const header = /\bheader (\S+?):? /i.exec(message)?.[1] ?? /lacks ((?:x-[\w-]+)(?:, x-[\w-]+)*)/i.exec(message)?.[1];
  return header ? header.toLowerCase() : '';
}

/** Judges exchanges addressed to an API under `basePath` (e.g. `/v1`). */
export class Judge {
  private readonly router = new Router(loadOperations());
  private readonly requests: Map<string, RequestValidator> = compileRequestValidators('full');
  private readonly state: CheckState = { requestIds: new BoundedSet(REMEMBERED_IDS) };

  constructor(private readonly basePath: string) {}

  /** Every finding of one exchange, request side first. */
  judge(o: ObservedExchange): Finding[] {
    const x = this.exchange(o);
    const base = { method: o.method, target: o.target, status: o.status, operation: x.operation?.operationId, requestId: x.responseHeaders['x-request-id'] };
    const problems = this.requestProblems(o, x);
    const findings: Finding[] = problems.map((p) => ({ ...base, side: 'request' as const, ...p }));
    // A success to a request the spec rejects: the upstream should have answered 400 validation_error.
    if (o.status >= 200 && o.status < 300) {
      for (const p of problems) findings.push({ ...base, side: 'response', check: 'invalidRequestAccepted', requirement: p.requirement, message: `${o.status} to a request whose ${p.message}`, location: p.location });
    }
    for (const check of CHECKS) {
      // A HEAD answer is a GET answer without its body (RFC 9110 §9.3.2): body checks do not apply.
      if (o.method === 'HEAD' && check.name === 'problemDetails') continue;
      for (const found of check.run(x, this.state)) {
        const requirement = x.operation?.inferred && check.inferredRequirement ? check.inferredRequirement : check.requirement;
        const message = typeof found === 'string' ? found : found.message;
        const location = typeof found === 'string' || found.at === undefined ? locationOf(message) : (found.at.startsWith('/') ? found.at.replace(/\/\d+(?=\/|$)/g, '/*') : found.at.toLowerCase());
        findings.push({ ...base, side: 'response', check: check.name, requirement, message, location });
      }
    }
    return findings;
  }

  /** The exchange as the suite's checks see it (suites/lib/exchange.ts). */
  private exchange(o: ObservedExchange): Exchange {
    const q = o.target.indexOf('?');
    const rawPath = q === -1 ? o.target : o.target.slice(0, q);
    const inside = rawPath.startsWith(`${this.basePath}/`);
    const apiPath = inside ? rawPath.slice(this.basePath.length) : rawPath;
    const route = inside ? this.router.match(o.method, apiPath) : undefined;
    const requestHeaders = headerRecord(o.requestHeaders);
    const responseHeaders = headerRecord(o.responseHeaders);
    const text = o.responseBody.bytes().toString('utf8');
    let json: unknown;
    if (!o.responseBody.truncated && text.length > 0 && /json/.test(responseHeaders['content-type'] ?? '')) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    // The checks tell requests outside the API by the URL's path equalling the recorded path.
    let url = `http://proxy${rawPath.startsWith('/') ? '' : '/'}${rawPath}`;
    let path = apiPath;
    try {
      if (!inside) path = new URL(url).pathname;
    } catch {
      url = 'http://proxy/';
      path = '/';
    }
    return {
      method: o.method,
      url,
      path,
      operation: route?.kind === 'match' ? route.match.operation : undefined,
      requestHeaders,
      requestBody: o.requestBody.length > 0 ? o.requestBody.bytes().toString('utf8') : undefined,
      status: o.status,
      responseHeaders,
      responseBody: o.responseBody.truncated ? `<${o.responseBody.length} bytes>` : text,
      json,
      durationMs: o.durationMs,
      authenticated: (requestHeaders.authorization ?? '').startsWith('Bearer sk_'),
      retries: [],
    };
  }

  /** What the spec rejects in the request (parameters, JSON body); each finding is a request finding. */
  private requestProblems(o: ObservedExchange, x: Exchange): Array<Pick<Finding, 'check' | 'requirement' | 'message' | 'location'>> {
    const op = x.operation;
    if (!op) return [];
    const validator = this.requests.get(op.operationId)!;
    const q = o.target.indexOf('?');
    const query = parseQueryString(q === -1 ? '' : o.target.slice(q + 1), '&', '=', { maxKeys: 0 });
    const lists: Record<string, string[]> = {};
    for (const name in query) lists[name] = ([] as string[]).concat(query[name] ?? []);
    const route = this.router.match(o.method, x.path);
    const params = route.kind === 'match' ? route.match.params : {};
    const problems: Array<Pick<Finding, 'check' | 'requirement' | 'message' | 'location'>> = [];
    for (const e of validator.readParams(params, lists).errors) {
      problems.push({ check: 'requestParameters', requirement: 'ERR-006', message: `${e.in} parameter ${e.name} ${e.message}`, location: `${e.in}:${e.name}` });
    }
    const body = o.requestBody;
    if (validator.validateBody && body.length > 0 && !body.truncated && isJsonType(mediaOf(x.requestHeaders['content-type']))) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.bytes().toString('utf8'));
      } catch {
        problems.push({ check: 'requestBody', requirement: 'ERR-007', message: 'the body is not well-formed JSON', location: '(root)' });
        return problems;
      }
      for (const e of validator.validateBody(parsed)) {
        problems.push({ check: 'requestBody', requirement: 'ERR-006', message: `body ${e.pointer} ${e.message}`, location: (e.pointer ?? '/').replace(/\/\d+(?=\/|$)/g, '/*') });
      }
    }
    return problems;
  }
}
