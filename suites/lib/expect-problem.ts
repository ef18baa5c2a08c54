/**
 * `expectProblem(response, status, code?)`: the response is problem details of this status (and, when
 * the description documents one, this code). The universal checks already prove the shape, the `type`
 * suffix and `request_id` on every error; this adds the status and code the scenario expects.
 */
import { expect } from '@playwright/test';
import type { ApiResponse } from './client.ts';

export function expectProblem(response: ApiResponse, status: number, code?: string): void {
  const where = `${response.exchange.method} ${response.exchange.path}`;
  expect(response.status, `${where}: expected ${status}${code ? ` ${code}` : ''}, got ${response.status} ${response.text.slice(0, 300)}`).toBe(status);
  expect(response.headers['content-type'] ?? '', `${where}: content type`).toMatch(/^application\/problem\+json/);
  if (code !== undefined) expect(response.body?.code, `${where}: problem code`).toBe(code);
  expect(response.body?.status, `${where}: problem status`).toBe(status);
  expect(response.body?.request_id, `${where}: request_id equals X-Request-ID`).toBe(response.headers['x-request-id']);
}

/** The response is not a success (a refused command): any 4xx problem. */
export function expectRefused(response: ApiResponse): void {
  expect(response.status, `${response.exchange.method} ${response.exchange.path} should be refused, got ${response.status}`).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
}
