/**
 * Stages apiPrefix and route (docs/design.md §4, layer 4): the API lives under `/v1` (else 404, before
 * authentication); the spec's router finds the operation (404, or 405 with `Allow`), and the query and
 * path parameters are read against it. Parameter errors are kept for the validate stage: scope and
 * module answers (403) come first.
 */
import type { RequestValidator } from '../../contract/validators.ts';
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

/** The route step over a router and validators compiled once. */
export function routeStep(router: Router, validators: Map<string, RequestValidator>): Step {
  return (ex: Exchange) => {
    const apiPath = ex.path.slice(3);
    const route = router.match(ex.method, apiPath);
    if (route.kind === 'not_found') throw new ProblemError(404, 'not_found', `No route ${ex.method} /v1${apiPath}.`);
    if (route.kind === 'method_not_allowed') {
      throw new ProblemError(405, 'method_not_allowed', `${ex.method} is not allowed on /v1${apiPath}.`, {}, { Allow: route.allow.join(', ') });
    }
    const op = (ex.op = route.match.operation);
    ex.query = parseQuery(ex.search);
    const validator = (ex.validator = validators.get(op.operationId)!);
    const { values, errors } = validator.readParams(route.match.params, ex.query);
    ex.params = values;
    ex.paramErrors = errors;
  };
}
