/**
 * Stages apiPrefix and route (docs/design.md §4, layer 4): the API lives under `/v1` (else 404, before
 * authentication); the spec's router finds the operation (404, or 405 with `Allow`), and the query and
 * path parameters are read against it. Parameter errors are kept for the validate stage: scope and
 * module answers (403) come first.
 */
import type { Operation } from '../../contract/openapi.ts';
import type { FieldError, RequestValidator } from '../../contract/validators.ts';
import type { Router } from '../../contract/router.ts';
import { ProblemError } from '../http/problem.ts';
import { parseQuery } from '../http/query.ts';
import type { Exchange } from './exchange.ts';
import type { Step } from './stages.ts';

/** 404 unless the path is `/v1` or below it. */
export const apiPrefixStep: Step = (ex: Exchange) => {
  const path = ex.path;
  if (path !== '/v1' && !path.startsWith('/v1/')) throw new ProblemError(404, 'not_found', `No route ${path}: the API lives under /v1.`);
};

/** What the route stage reads from a request line: the same for every request with that method, path and query. */
interface Routed {
  op: Operation;
  validator: RequestValidator;
  query: Record<string, string[]>;
  params: Record<string, unknown>;
  paramErrors: FieldError[];
}

/** The most request lines remembered (then forgotten all at once: memory stays bounded). */
const ROUTED_LINES = 4096;

/**
 * The route step over a router and validators compiled once. What it reads from a request line is a
 * function of the method, path and query alone, so it is remembered by them (frozen: no later stage
 * changes the query or the parameters); a request the router refuses is not remembered.
 */
export function routeStep(router: Router, validators: Map<string, RequestValidator>): Step {
  // method → path → query string → what was read (nested: no key is built per request).
  const remembered = new Map<string, Map<string, Map<string, Routed>>>();
  let lines = 0;
  return (ex: Exchange) => {
    const method = ex.method;
    let byPath = remembered.get(method);
    let bySearch = byPath?.get(ex.path);
    let routed = bySearch?.get(ex.search);
    if (routed === undefined) {
      routed = routeOf(router, validators, ex);
      if (++lines > ROUTED_LINES) {
        remembered.clear();
        lines = 1;
        byPath = bySearch = undefined;
      }
      if (byPath === undefined) remembered.set(method, (byPath = new Map()));
      if (bySearch === undefined) byPath.set(ex.path, (bySearch = new Map()));
      bySearch.set(ex.search, routed);
    }
    ex.op = routed.op;
    ex.query = routed.query;
    ex.validator = routed.validator;
    ex.params = routed.params;
    ex.paramErrors = routed.paramErrors;
  };
}

/** Routes a request line and reads its parameters; throws 404 or 405 problem details. */
function routeOf(router: Router, validators: Map<string, RequestValidator>, ex: Exchange): Routed {
  const apiPath = ex.path.slice(3);
  const route = router.match(ex.method, apiPath);
  if (route.kind === 'not_found') throw new ProblemError(404, 'not_found', `No route ${ex.method} /v1${apiPath}.`);
  if (route.kind === 'method_not_allowed') {
    throw new ProblemError(405, 'method_not_allowed', `${ex.method} is not allowed on /v1${apiPath}.`, {}, { Allow: route.allow.join(', ') });
  }
  const op = route.match.operation;
  const query = parseQuery(ex.search);
  const validator = validators.get(op.operationId)!;
  const { values, errors } = validator.readParams(route.match.params, query);
  return { op, validator, query: deepFrozen(query), params: deepFrozen(values), paramErrors: deepFrozen(errors) };
}

/** `value` with every object and array in it frozen; returns it. */
function deepFrozen<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFrozen((value as Record<string, unknown>)[key]);
  }
  return value;
}
