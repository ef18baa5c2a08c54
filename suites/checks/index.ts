/** The registry of universal checks, in the order they run. */
import type { Check } from './registry.ts';
import { noServerError } from './no-server-error.ts';
import { statusDocumented } from './status-documented.ts';
import { contentType, problemContentType } from './content-type.ts';
import { requestIdPresent, requestIdUnique } from './request-id.ts';
import { rateLimitHeaders } from './rate-limit-headers.ts';
import { documentedHeaders } from './documented-headers.ts';
import { schemaValid } from './schema-valid.ts';
import { errorsUrlShared, problemDetails, problemRequestId, problemStatusMatches, problemTypeMatchesCode } from './problem-details.ts';

export const CHECKS: readonly Check[] = [
  noServerError,
  statusDocumented,
  contentType,
  problemContentType,
  requestIdPresent,
  requestIdUnique,
  rateLimitHeaders,
  documentedHeaders,
  schemaValid,
  problemDetails,
  problemTypeMatchesCode,
  problemStatusMatches,
  problemRequestId,
  errorsUrlShared,
];

export type { Check, CheckState } from './registry.ts';
