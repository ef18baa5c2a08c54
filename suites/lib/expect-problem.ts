/**
 * `expectProblem(response, status, code?)`: the response is an error of this status (and, when the
 * description documents one, this code): what the scenario's own requirement states. What every error
 * owes — content type `application/problem+json` (ERR-001), the shape (ERR-002), `status` equal to the
 * HTTP status (ERR-004), `request_id` equal to `X-Request-ID` (REQID-003) — the universal checks
 * (contract/checks/problem-details.ts, content-type.ts) prove on every response, each failing only its
 * own requirement; asserted here too, they would fail every test that expects an error.
 */
import { expect } from '@playwright/test';
import type { ApiResponse } from './client.ts';
import type { Problem } from './api-types.ts';

/**
 * A response's body read as problem details (Conventions › Errors): its members as the target sent them,
 * each possibly absent (a target may answer anything); undefined when the body is not a JSON object.
 */
export function problemOf(response: Pick<ApiResponse, 'body'>): Partial<Problem> | undefined {
  const body = response.body;
  return typeof body === 'object' && body !== null ? (body as Partial<Problem>) : undefined;
}

export function expectProblem(response: ApiResponse, status: number, code?: string): void {
  const where = `${response.exchange.method} ${response.exchange.path}`;
  expect(response.status, `${where}: expected ${status}${code ? ` ${code}` : ''}, got ${response.status} ${response.text.slice(0, 300)}`).toBe(status);
  if (code !== undefined) expect(problemOf(response)?.code, `${where}: problem code`).toBe(code);
}

/** The response is not a success (a refused command): any 4xx problem. */
export function expectRefused(response: ApiResponse): void {
  expect(response.status, `${response.exchange.method} ${response.exchange.path} should be refused, got ${response.status}`).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
}
