/**
 * One request and its response as the suite records them: the evidence of the report (design.md §6).
 * Bodies are kept as text, truncated; secrets are redacted before anything leaves the worker.
 */
import type { Operation } from '../../contract/openapi.ts';

export interface Exchange {
  method: string;
  url: string;
  /** Path relative to the API base, without query string ("/meters/abc"). */
  path: string;
  operation?: Operation;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  /** The parsed JSON body, when the response had one. */
  json?: unknown;
  durationMs: number;
  /** Whether the request carried credentials of the target. */
  authenticated: boolean;
  /** 429s retried before this response, with the seconds waited. */
  retries: Array<{ status: number; waitedSeconds: number }>;
}

/** A failed universal check: the check's name, the requirement it proves, and what it saw. */
export interface CheckFailure {
  check: string;
  requirement: string;
  message: string;
}

/** What a reporter attachment of a test carries. */
export interface EvidenceRecord {
  exchanges: Array<Omit<Exchange, 'operation' | 'json'> & { operationId?: string }>;
  checkFailures: Array<CheckFailure & { exchange: number }>;
  requests: number;
}

export const EVIDENCE_ATTACHMENT = 'conformance-evidence';
export const MAX_BODY_CHARS = 4000;
