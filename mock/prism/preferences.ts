/**
 * Reading Prism's `Prefer` hooks without loading Prism (`Prefer: code=, example=, dynamic=, seed=`;
 * `__code`, `__example`, `__dynamic`, `__seed` when no Prefer header is sent), and the answer to an
 * error status asked for: the mock's own problem details (Errors), never Prism's generated body.
 * A `code` the operation does not document is 400 naming `Prefer` (ProblemError).
 */
import type { Operation } from '../../contract/openapi.ts';
import { invalid } from '../http/problem.ts';

const PREFER_KEYS = /(?:^|[,;\s])(code|example|dynamic|seed)=/;
const QUERY_KEYS = ['__code', '__example', '__dynamic', '__seed'];

/** Whether a request asks for Prism's generated response. */
export function wantsPrism(prefer: string | undefined, query: Record<string, string[]>): boolean {
  if (prefer !== undefined) return PREFER_KEYS.test(prefer);
  return QUERY_KEYS.some((k) => query[k] !== undefined);
}

/** The preferences by name (`code`, `example`, `dynamic`, `seed`), from `Prefer` or else the query. */
export function preferences(prefer: string | undefined, query: Record<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  if (prefer !== undefined) {
    for (const part of prefer.split(/[,;]/)) {
      const [k, v] = part.trim().split('=');
      if (k && v !== undefined) out[k] = v.replace(/^"|"$/g, '');
    }
  } else {
    for (const k of QUERY_KEYS) if (query[k]) out[k.slice(2)] = query[k]![0]!;
  }
  return out;
}

/** An error status asked for, with the problem `code` it is answered with. */
export interface AskedProblem { status: number; code: string }

/**
 * The problem an error `code=` asks for, undefined for any other preference. Throws ProblemError (400
 * naming `Prefer`) for a code the operation does not document or an `example=` that is none of its codes.
 */
export function askedProblem(op: Operation, prefs: Record<string, string>): AskedProblem | undefined {
  if (prefs.code === undefined) return undefined;
  if (!op.responses.some((r) => String(r.status) === prefs.code)) {
    throw invalid('header', 'Prefer', `asks for code=${prefs.code}, which ${op.operationId} does not document`);
  }
  const status = Number(prefs.code);
  return status >= 400 ? { status, code: problemCode(op, status, prefs.example) } : undefined;
}

/** The code the mock itself answers each status with (Errors; the codes the description does not show are the mock's). */
const MOCK_CODES: Record<number, string> = {
  400: 'validation_error', 401: 'missing_authorization', 403: 'insufficient_scope', 404: 'not_found', 405: 'method_not_allowed',
  409: 'conflict', 413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited', 500: 'internal_error',
};

/**
 * The problem `code` of an error status: `example=` names one of the response's documented codes
 * (`x-error-codes`: `Prefer: code=409, example=resource_in_use`), else its first documented code, else
 * the mock's own code for the status. An `example=` that is no such code is 400 naming `Prefer`.
 */
export function problemCode(op: Operation, status: number, example: string | undefined): string {
  const documented = op.responses.find((r) => r.status === status)?.errorCodes ?? [];
  if (example === undefined) return documented[0] ?? MOCK_CODES[status] ?? (status >= 500 ? 'internal_error' : 'error');
  if (documented.includes(example)) return example;
  const known = documented.length ? `one of its codes: ${documented.join(', ')}` : 'no codes to choose from';
  throw invalid('header', 'Prefer', `asks for example=${example} with code=${status}, whose problem details have ${known}`);
}
