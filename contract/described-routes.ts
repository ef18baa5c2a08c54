/**
 * Whether a request goes only through what docs/api-v1.md describes: an operation of spec/openapi.yaml
 * not marked `x-inferred` (nor `x-inferred-method`), and query parameters not marked `x-inferred`.
 * What a check learns through anything else rests on the kit's own reading of the description, so it
 * can never call a target wrong (docs/vendors.md, "profile check": `unverified`).
 */
import { loadOperations, type Operation } from './openapi.ts';

/** Why a request is not described, or undefined when every part of it is. */
export type Undescribed = string | undefined;

/** The operation of `method` whose path template matches `path` (no query), literal segments first. */
export function operationFor(method: string, path: string, operations: Operation[] = loadOperations()): Operation | undefined {
  const segments = path.split('/');
  let best: { op: Operation; literal: number } | undefined;
  for (const op of operations) {
    if (op.method !== method.toUpperCase()) continue;
    const template = op.path.split('/');
    if (template.length !== segments.length) continue;
    let literal = 0;
    const fits = template.every((t, i) => (/^\{.+\}$/.test(t) ? segments[i] !== '' : t === segments[i] && ++literal > 0));
    if (fits && (!best || literal > best.literal)) best = { op, literal };
  }
  return best?.op;
}

/**
 * Undefined when `METHOD url` (a path relative to the API base, with its query) uses only a described
 * operation and described query parameters; else the reason, e.g. "GET /parts/{id}: the description
 * does not show this route" or "GET /workrequests: the parameter requestStatus is not named by the
 * description".
 */
export function undescribed(method: string, url: string, operations: Operation[] = loadOperations()): Undescribed {
  const [path, query = ''] = url.split('?') as [string, string?];
  const op = operationFor(method, path, operations);
  if (!op) return `${method.toUpperCase()} ${path}: no operation of the description`;
  if (op.inferred) return `${op.method} ${op.path}: the description does not show this route`;
  for (const name of new URLSearchParams(query).keys()) {
    const param = op.parameters.find((p) => p.in === 'query' && p.name === name);
    if (!param) return `${op.method} ${op.path}: the description has no parameter ${name}`;
    if (param.inferred) return `${op.method} ${op.path}: the parameter ${name} is not named by the description`;
  }
  return undefined;
}
