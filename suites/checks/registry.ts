/**
 * The registry of universal checks, in the order they run. A path outside the API base (`/v1`) is not
 * the API (Versioning): only noServerError judges its answers.
 */
import type { Check } from './types.ts';
import type { Exchange } from '../lib/exchange.ts';
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

export type { Check, CheckState, Finding } from './types.ts';
