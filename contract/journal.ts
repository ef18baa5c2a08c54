/**
 * The request journal's shapes (docs/integrators.md, "The request journal"): what the mock records of
 * every API exchange it serves (mock/journal/), what `GET /__mock/journal` answers, and what
 * `mms-conformance client-report` (contract/client-rules/) reads. Secrets never appear: API keys are
 * masked (`sk_live_…abcd`) wherever they occur, and control tokens are never recorded.
 */

/** The stage of the mock's request path that decided the answer (mock/pipeline/stages.ts). */
export type DecidingStage =
  | 'request' | 'fault' | 'routing' | 'authentication' | 'rate limit' | 'scope' | 'module'
  | 'validation' | 'Prefer' | 'business rule' | 'handler';

/** A message as recorded: headers (names lower-case, secrets masked) and the body's text up to the limit. */
export interface JournalMessage {
  headers: Record<string, string>;
  /** The body's text (UTF-8), cut at the journal's body limit; absent when there was none or it was not read. */
  body?: string;
  /** The body's whole length in bytes, when known. */
  bytes?: number;
  /** True when `body` was cut at the limit. */
  truncated?: boolean;
}

/** One failing part of a request, as found by validating it against the OpenAPI description. */
export interface JournalValidationError {
  in: 'path' | 'query' | 'header' | 'body';
  /** The parameter name, or the JSON pointer in the body. */
  path: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`, ...), or `parse` / `media type`. */
  keyword: string;
  message: string;
}

/** One exchange the mock served. */
export interface JournalEntry {
  /** Position in the journal, 1 for the first exchange since start or `DELETE /__mock/journal`. */
  seq: number;
  /** The response's `X-Request-ID`. */
  requestId: string;
  /** When it arrived, by the mock's clock (ISO 8601; moves with `POST /__mock/clock/advance`). */
  time: string;
  /** Milliseconds from arrival to the answer. */
  durationMs: number;
  /** The organization of the key, when it authenticated. */
  organization?: string;
  /** The key: masked secret, its id and role (label, prefix, scopes), when one was presented. */
  key?: { masked: string; id?: string; label?: string; prefix?: 'live' | 'test'; scopes?: string[] | 'all' };
  method: string;
  /** The path as sent (`/v1/...`), without the query. */
  path: string;
  /** The query string without `?` ('' when none; secrets masked). */
  query: string;
  operationId?: string;
  request: JournalMessage;
  response: JournalMessage;
  status: number;
  /**
   * The cursor a list page issued (`meta.pagination.cursor`, or `nextCursor` of compatibility lists),
   * read from the whole body even when `response.body` was cut.
   */
  cursor?: string;
  /** What decided the answer, with the problem code and the requirement id behind a 4xx. */
  decided: { stage: DecidingStage; code?: string; requirement?: string; detail?: string };
  /**
   * The request against the description: `checked` false when the answer came before the request was
   * routed (then `errors` is empty); `valid` false with the failing keyword and path otherwise.
   */
  validation: { checked: boolean; valid: boolean; errors: JournalValidationError[] };
}

/** Filters of `GET /__mock/journal` and of the count form (`GET /__mock/journal/count`). */
export interface JournalFilter {
  method?: string;
  /** A path (exact, or a prefix ending in `*`) or an operationId. */
  path?: string;
  /** A status (`404`) or class (`4xx`). */
  status?: string;
  organization?: string;
  /** The key's id, or its last four characters. */
  key?: string;
  /** Entries whose `seq` is greater (a number) or whose time is later (ISO 8601). */
  since?: string;
  /** At most this many, the newest (default 100, at most the journal's size). */
  limit?: number;
}

/** `GET /__mock/journal`'s body. */
export interface JournalPage {
  enabled: boolean;
  size: number;
  bodyLimit: number;
  /** Entries recorded since start or the last clear (also those dropped by the bound). */
  recorded: number;
  entries: JournalEntry[];
}

/** The query parameter names of a JournalFilter. */
export const JOURNAL_FILTERS = ['method', 'path', 'status', 'organization', 'key', 'since', 'limit'] as const;

/** The cursor a list page's text issues: the last `"cursor":"…"` or `"nextCursor":"…"` in it (none: undefined). */
export function issuedCursor(text: string): string | undefined {
  const at = Math.max(text.lastIndexOf('"cursor":"'), text.lastIndexOf('"nextCursor":"'));
  if (at === -1) return undefined;
  const start = text.indexOf(':"', at) + 2;
  const end = text.indexOf('"', start);
  return end > start ? text.slice(start, end) : undefined;
}
