/**
 * Problem details (RFC 9457) for every error the mock answers (Errors): `application/problem+json`
 * with `type` = `{errors_url}/<code>`, `title`, `status`, `detail`, `request_id` and `code`.
 */
import type { FieldError } from '../../contract/validators.ts';

/** The `{errors_url}` of the mock. */
export const ERRORS_URL = 'https://errors.mms.invalid/v1';

const TITLES: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  408: 'Request Timeout', 409: 'Conflict', 413: 'Content Too Large', 415: 'Unsupported Media Type',
  417: 'Expectation Failed', 429: 'Too Many Requests', 431: 'Request Header Fields Too Large',
  500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable',
};

/**
 * An error a layer or handler throws; the pipeline turns it into problem details. It is an answer, not
 * a failure of the mock, so no stack trace is captured (capturing one costs more than the rest of a
 * 404).
 */
export class ProblemError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${status} ${code}: ${detail}`);
    Error.stackTraceLimit = limit;
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.extra = extra;
    this.headers = headers;
  }
}

/** Serializes a problem-details body. */
export function problemBody(status: number, code: string, detail: string, requestId: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: `${ERRORS_URL}/${code}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    request_id: requestId,
    code,
    ...extra,
  });
}

/** 400 `validation_error` naming each failing field (Errors; `errors` is an inferred member). */
export function validationError(errors: FieldError[]): ProblemError {
  const first = errors[0];
  const where = first ? `${first.in} ${first.name ?? first.pointer ?? ''}`.trim() : 'request';
  return new ProblemError(400, 'validation_error', `Validation failed: ${where} ${first?.message ?? 'is invalid'}`.trim(), { errors });
}

/** 400 `validation_error` for one field. */
export function invalid(location: FieldError['in'], nameOrPointer: string, message: string): ProblemError {
  const field: FieldError = location === 'body' ? { in: location, pointer: nameOrPointer, message } : { in: location, name: nameOrPointer, message };
  return validationError([field]);
}

/** 404: the resource or a related record is unavailable to the organization. */
export function notFound(what: string): ProblemError {
  return new ProblemError(404, 'not_found', `${what} is not available to this organization.`);
}

/** 409 with a specific or the generic `conflict` code. */
export function conflict(detail: string, code = 'conflict'): ProblemError {
  return new ProblemError(409, code, detail);
}
