/**
 * The OpenAPI links of spec/openapi.yaml (OpenAPI 3.1 §4.8.20, Link Object): which operation a response
 * leads to and how the next request's path parameters and body members come from it. They encode what
 * the description connects (create → read/update/delete, list item → detail, meter → readings, work
 * request → work-order create with `workRequestId`, work order → expenses and parts section); the
 * stateful generative run (suites/generative/stateful.spec.ts) derives its commands from them.
 *
 * Runtime expressions supported (the subset the spec uses): `$response.body#/json/pointer`,
 * `$request.path.name`, `$request.query.name`, `$request.body#/pointer`; any other string is a literal.
 */
import { loadOperations, type LinkSpec, type Operation } from './openapi.ts';

/** A link with the operations at both ends and the response status it hangs on. */
export interface Link extends LinkSpec {
  from: Operation;
  status: number;
  to: Operation;
}

/** What a runtime expression reads: the request that was sent and the response it got. */
export interface LinkContext {
  requestPath: Record<string, string>;
  requestQuery?: Record<string, string | string[]>;
  requestBody?: unknown;
  responseBody: unknown;
}

let cached: Link[] | undefined;

/** Every link of the spec, in document order. Throws when a link names an unknown operationId. */
export function loadLinks(): Link[] {
  if (cached) return cached;
  const ops = loadOperations();
  const byId = new Map(ops.map((o) => [o.operationId, o]));
  cached = ops.flatMap((from) =>
    from.responses.flatMap((r) =>
      r.links.map((l) => {
        const to = byId.get(l.operationId);
        if (!to) throw new Error(`link ${from.operationId} ${r.status} ${l.name} names an unknown operation ${l.operationId}`);
        return { ...l, from, status: r.status, to };
      })));
  return cached;
}

/** The value at a JSON pointer (RFC 6901), or undefined when a step is missing. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return pointer === '' ? value : (value as Record<string, unknown>)?.[''];
  let current = value;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** One runtime expression evaluated against `ctx` (a non-expression string is returned as is). */
export function evaluate(expression: string, ctx: LinkContext): unknown {
  const body = /^\$(response|request)\.body#(.*)$/.exec(expression);
  if (body) return atPointer(body[1] === 'response' ? ctx.responseBody : ctx.requestBody, body[2]!);
  const param = /^\$request\.(path|query)\.(.+)$/.exec(expression);
  if (param) return param[1] === 'path' ? ctx.requestPath[param[2]!] : ctx.requestQuery?.[param[2]!];
  return expression;
}

/** Whether a link reads an item of a list (`…/0/…`): it may lead to a record another client made. */
export function fromListItem(link: LinkSpec): boolean {
  return [...Object.values(link.parameters), ...Object.values(link.requestBody ?? {})].some((e) => /#\/\w+\/\d+\//.test(e));
}

/**
 * The request a link leads to: the target's path with its parameters filled in and the body members the
 * link sets. Undefined when an expression finds nothing (the response did not hold what the link reads).
 */
export function follow(link: Link, ctx: LinkContext): { path: string; body?: Record<string, unknown> } | undefined {
  let path = link.to.path;
  for (const [name, expression] of Object.entries(link.parameters)) {
    const value = evaluate(expression, ctx);
    if (value === undefined || value === null || typeof value === 'object') return undefined;
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  if (/\{\w+\}/.test(path)) return undefined;
  if (!link.requestBody) return { path };
  const body: Record<string, unknown> = {};
  for (const [member, expression] of Object.entries(link.requestBody)) {
    const value = evaluate(expression, ctx);
    if (value === undefined) return undefined;
    body[member] = value;
  }
  return { path, body };
}
