/**
 * `expectSucceeded(response, what)`: a request that arranges a test's scenario (creating a record,
 * moving it into a state) succeeded — any 2xx. Its exact success status is not the test's to judge:
 * the status an operation gives a valid request is stated once, in SPEC-007 (Endpoints; proved by
 * conformance/operations-requests.spec.ts) and the universal check statusDocumented (SPEC-001), so a
 * create answered 200 instead of 201 fails those, not every test that creates a record
 * (docs/design.md §6).
 */
import { expect } from '@playwright/test';
import type { ApiResponse } from './client.ts';

export function expectSucceeded(response: ApiResponse, what = `${response.exchange.method} ${response.exchange.path}`): void {
  expect(response.status >= 200 && response.status < 300, `${what}: expected a success, got ${response.status} ${response.text.slice(0, 300)}`).toBe(true);
}
