/**
 * Small tools for writing mutants: editing JSON response bodies, selecting operations, wrapping
 * handlers and rewriting query strings.
 */
import type { OperationId } from '../../contract/openapi.ts';
import type { Context, Handler, HandlerMap, Reply } from '../http/context.ts';
import type { Outgoing } from '../http/send.ts';
import type { Alteration, RequestInfo } from './alteration.ts';

/** Applies `edit` to a JSON response body (in place or by returning a new value). */
export function editJson(out: Outgoing, edit: (body: any) => unknown): Outgoing {
  if (out.body === undefined) return out;
  let value: unknown;
  try {
    value = JSON.parse(String(out.body));
  } catch {
    return out;
  }
  const result = edit(value);
  out.body = JSON.stringify(result === undefined ? value : result);
  return out;
}

/** A response hook that runs only for the given operations. */
export function forOperations(ids: string[], hook: (out: Outgoing, request: RequestInfo) => Outgoing): NonNullable<Alteration['response']> {
  return (out, request) => (request.operationId && ids.includes(request.operationId) ? hook(out, request) : out);
}

/** Wraps some handlers: `{ getMeter: (original) => (ctx) => ... }`. */
export function wrapHandlers(wrappers: Partial<Record<OperationId, (original: Handler) => Handler>>): NonNullable<Alteration['handlers']> {
  return (original: HandlerMap) => {
    const out: HandlerMap = { ...original };
    for (const [id, wrap] of Object.entries(wrappers) as Array<[OperationId, (original: Handler) => Handler]>) out[id] = wrap(original[id]);
    return out;
  };
}

/** Runs `body` with `set()` applied and `restore()` undone afterwards, whatever happens. */
export function withTemporary<T>(set: () => () => void, body: () => T): T {
  const restore = set();
  try {
    return body();
  } finally {
    restore();
  }
}

/** Rewrites the query string of a URL with `edit` (which changes the URLSearchParams in place). */
export function editQuery(url: string, edit: (q: URLSearchParams, path: string) => void): string {
  const i = url.indexOf('?');
  const path = i === -1 ? url : url.slice(0, i);
  const q = new URLSearchParams(i === -1 ? '' : url.slice(i + 1));
  edit(q, path);
  const search = q.toString();
  return search ? `${path}?${search}` : path;
}

/** Calls a handler and gives its JSON reply body to `edit`. */
export function editReply(original: Handler, ctx: Context, edit: (body: any, reply: Reply) => unknown): Reply {
  const reply = original(ctx);
  if (reply.body === undefined) return reply;
  const value = JSON.parse(String(reply.body));
  const result = edit(value, reply);
  // Without `chunks` (a list page's bytes), which the app would otherwise send instead of the new body.
  return { status: reply.status, headers: reply.headers, body: JSON.stringify(result === undefined ? value : result) };
}
