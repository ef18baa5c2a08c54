/**
 * What decided an answer, for the journal (contract/journal.ts `decided`): the last stage of the
 * request path (mock/pipeline/stages.ts) a request reached, read together with the problem code; the
 * requirement of the catalog (spec/requirements.yaml) that states a 4xx's code; and the JSON Schema
 * keyword behind a validation message (Ajv's wording).
 */
import type { DecidingStage, JournalValidationError } from '../../contract/journal.ts';
import type { StageName } from '../pipeline/stages.ts';

/** The requirement quoting each documented problem code (Errors; Authentication; Limits). */
const REQUIREMENT_OF_CODE: Record<string, string> = {
  missing_authorization: 'AUTH-001',
  invalid_authorization_format: 'AUTH-002',
  invalid_api_key_format: 'AUTH-004',
  invalid_api_key: 'AUTH-007',
  insufficient_scope: 'SCOPE-002',
  module_disabled: 'MODULE-001',
  rate_limited: 'RATE-005',
  validation_error: 'ERR-006',
  resource_in_use: 'METER-011',
  invalid_location_hierarchy: 'LOC-003',
  invalid_work_request_state: 'WO-018',
  not_found: 'ERR-008',
  conflict: 'ERR-008',
  payload_too_large: 'ERR-008',
  unsupported_media_type: 'ERR-008',
};

/** The requirement behind a 4xx answer's `code`, when the catalog states it. */
export function requirementOf(status: number, code: string | undefined): string | undefined {
  return status >= 400 && status < 500 && code !== undefined ? REQUIREMENT_OF_CODE[code] : undefined;
}

/** The deciding stage of an answer with `status` and problem `code`, given the last stage reached. */
export function decidingStage(reached: StageName | undefined, status: number, code: string | undefined): DecidingStage {
  if (code === 'injected_fault' || (code === 'rate_limited' && (reached === 'onRequest' || reached === 'apiPrefix'))) return 'fault';
  switch (reached) {
    case undefined:
    case 'onRequest':
      return 'request';
    case 'apiPrefix':
    case 'route':
      return 'routing';
    case 'authenticate':
      return 'authentication';
    case 'rateLimit':
      return 'rate limit';
    case 'authorize':
      return code === 'module_disabled' ? 'module' : 'scope';
    case 'validate':
    case 'readBody':
      return 'validation';
    case 'validateBody':
      return code === 'module_disabled' ? 'module' : 'validation';
    case 'prism':
      return 'Prefer';
    case 'handle':
      return status >= 400 && status < 500 ? (code === 'module_disabled' ? 'module' : code === 'validation_error' ? 'validation' : 'business rule') : 'handler';
  }
}

/** Ajv's message wording → its keyword (the journal reports the keyword; the mock's problems carry messages). */
const KEYWORDS: Array<[RegExp, string]> = [
  [/^must have required property/, 'required'],
  [/^must NOT have additional properties|^is not allowed here/, 'additionalProperties'],
  [/^must be equal to one of the allowed values/, 'enum'],
  [/^must be equal to constant/, 'const'],
  [/^must be (string|number|integer|boolean|object|array|null)/, 'type'],
  [/^must be [<>]=? /, 'maximum/minimum'],
  [/^must match pattern/, 'pattern'],
  [/^must match format/, 'format'],
  [/^must NOT have (more|fewer) than \d+ characters/, 'maxLength/minLength'],
  [/^must NOT have (more|fewer) than \d+ items/, 'maxItems/minItems'],
  [/^must NOT have duplicate items/, 'uniqueItems'],
  [/^must match exactly one schema|^must match a schema in anyOf/, 'oneOf/anyOf'],
  [/^must be multiple of/, 'multipleOf'],
  [/^is required/, 'required'],
  [/^is not valid JSON|JSON/, 'parse'],
];

/** The keyword of a validation message; `rule` when it is a rule of the mock rather than a schema keyword. */
export function keywordOf(message: string): string {
  for (const [re, keyword] of KEYWORDS) if (re.test(message)) return keyword;
  return 'rule';
}

/** A problem's `errors` member (FieldError, contract/validators.ts) as journal validation errors. */
export function validationErrors(errors: unknown): JournalValidationError[] {
  if (!Array.isArray(errors)) return [];
  return errors.slice(0, 20).map((e: { in?: string; name?: string; pointer?: string; message?: string }) => ({
    in: (['path', 'query', 'header', 'body'].includes(e.in ?? '') ? e.in : 'body') as JournalValidationError['in'],
    path: e.pointer ?? e.name ?? '',
    keyword: keywordOf(e.message ?? ''),
    message: e.message ?? '',
  }));
}
