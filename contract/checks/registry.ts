/**
 * The registry of universal checks, in the order they run. A path outside the API base (`/v1`) is not
 * the API (Versioning): only noServerError judges its answers.
 */
import { requirementOf, type Check, type CheckState } from './types.ts';
import type { CheckFailure, Exchange } from '../exchange.ts';
import { noServerError } from './no-server-error.ts';
import { statusDocumented } from './status-documented.ts';
import { contentType, problemContentType } from './content-type.ts';
import { requestIdOnError, requestIdOnSuccess, requestIdUnique } from './request-id.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';
import { documentedHeaders } from './documented-headers.ts';
import { schemaValid } from './schema-valid.ts';
import { errorsUrlShared, problemDetails, problemRequestId, problemStatusMatches, problemTypeMatchesCode } from './problem-details.ts';

/** Whether the request went outside the API base: the client keeps the whole path of such URLs. */
function outsideApi(x: Exchange): boolean {
  return new URL(x.url).pathname === x.path;
}

/** The check, applied only to requests inside the API base. */
function apiOnly(check: Check): Check {
  return { ...check, run: (x, state) => (outsideApi(x) ? [] : check.run(x, state)) };
}

export const CHECKS: readonly Check[] = [
  noServerError,
  ...[
    statusDocumented,
    contentType,
    problemContentType,
    requestIdOnSuccess,
    requestIdOnError,
    requestIdUnique,
    rateLimitHeaders,
    documentedHeaders,
    schemaValid,
    problemDetails,
    problemTypeMatchesCode,
    problemStatusMatches,
    problemRequestId,
    errorsUrlShared,
  ].map(apiOnly),
];

/**
 * Every universal check run on one exchange, as check failures (docs/design.md §5): the check's name, the
 * requirement it fails (its `inferredRequirement` on an inferred operation or an inferred keyword:
 * requirementOf), the message, and where
 * (`at`: a JSON pointer into the body or a header name, when the check says). The one way the suite's
 * client and the proxy judge a response.
 */
export function runChecks(x: Exchange, state: CheckState, skip?: (check: Check) => boolean): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const check of CHECKS) {
    if (skip?.(check)) continue;
    for (const finding of check.run(x, state)) {
      const failure: CheckFailure = { check: check.name, requirement: requirementOf(check, x, finding), message: typeof finding === 'string' ? finding : finding.message, operationId: x.operation?.operationId, status: x.status };
      if (typeof finding !== 'string' && finding.at !== undefined) failure.at = finding.at;
      if (typeof finding !== 'string' && finding.rule !== undefined) failure.rule = finding.rule;
      failures.push(failure);
    }
  }
  return failures;
}

export type { Check, CheckState, Finding } from './types.ts';
