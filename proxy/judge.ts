/**
 * The validating half of the proxy: judges one observed exchange with the kit's own contract — the
 * compiled router and Ajv validators and the universal checks (contract/checks/), the
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
import { runChecks, type Check, type CheckState } from '../contract/checks/registry.ts';
import { buildExchange, type Exchange } from '../contract/exchange.ts';
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
    // A body longer or shorter than its Content-Length (RFC 9112 §6.3): the message's framing is broken.
    if (o.framing) {
      const got = o.framing.received === 'more' ? `more than ${o.framing.declared}` : String(o.framing.received);
      findings.push({ ...base, side: 'response', check: 'messageFraming', requirement: 'RFC 9112 §6.3', message: `Content-Length ${o.framing.declared}, but ${got} body bytes were sent`, location: 'content-length' });
    }
    // A success to a request the spec rejects: the upstream should have answered 400 validation_error.
    if (o.status >= 200 && o.status < 300) {
      for (const p of problems) findings.push({ ...base, side: 'response', check: 'invalidRequestAccepted', requirement: p.requirement, message: `${o.status} to a request whose ${p.message}`, location: p.location });
    }
    // A HEAD answer is a GET answer without its body (RFC 9110 §9.3.2): body checks do not apply.
    const skip = o.method === 'HEAD' ? (check: Check) => check.name === 'problemDetails' : undefined;
    for (const f of runChecks(x, this.state, skip)) {
      const location = f.at === undefined ? locationOf(f.message) : f.at.startsWith('/') ? f.at.replace(/\/\d+(?=\/|$)/g, '/*') : f.at.toLowerCase();
      findings.push({ ...base, side: 'response', check: f.check, requirement: f.requirement, message: f.message, location });
    }
    return findings;
  }

  /** The exchange as the suite's checks see it (contract/exchange.ts); outside the base, the URL keeps the whole path. */
  private exchange(o: ObservedExchange): Exchange {
    const q = o.target.indexOf('?');
    const rawPath = q === -1 ? o.target : o.target.slice(0, q);
    let url = `http://proxy${rawPath.startsWith('/') ? '' : '/'}${rawPath}`;
    let pathname = rawPath;
    try {
      if (!rawPath.startsWith(`${this.basePath}/`)) pathname = new URL(url).pathname;
    } catch {
      url = 'http://proxy/';
      pathname = '/';
    }
    const text = o.responseBody.truncated ? undefined : o.responseBody.bytes().toString('utf8');
    return buildExchange({
      method: o.method,
      url,
      pathname,
      basePath: this.basePath,
      requestHeaders: headerRecord(o.requestHeaders),
      requestBody: o.requestBody.length > 0 ? o.requestBody.bytes().toString('utf8') : undefined,
      status: o.status,
      responseHeaders: headerRecord(o.responseHeaders),
      responseText: text,
      responseBody: text ?? `<${o.responseBody.length} bytes>`,
      durationMs: o.durationMs,
    }, (method, path) => {
      const route = this.router.match(method, path);
      return route.kind === 'match' ? route.match.operation : undefined;
    });
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
