/**
 * The spec as the suite's checks need it: which operation a request addressed, and the response
 * validators of that operation (stated view: inferred shapes never decide), loaded from standalone code
 * generated once per spec (contract/response-validators.ts, contract/ajv-cache.ts).
 */
import { loadOperations, type Operation } from './openapi.ts';
import { Router } from './router.ts';
import { cachedResponseValidators, type ResponseValidator } from './response-validators.ts';

let router: Router | undefined;
let validators: Map<string, Map<number, ResponseValidator>> | undefined;

/** The operation a method and path (relative to the `/v1` base) address, if the spec has one. */
export function operationFor(method: string, path: string): Operation | undefined {
  router ??= new Router(loadOperations());
  const r = router.match(method, path);
  return r.kind === 'match' ? r.match.operation : undefined;
}

/** The validators of an operation's documented status, if documented. */
export function responseValidator(op: Operation, status: number): ResponseValidator | undefined {
  validators ??= cachedResponseValidators('stated');
  return validators.get(op.operationId)!.get(status);
}
