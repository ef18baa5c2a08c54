/**
 * The `setup` project: the target answers HTTP at the API base before anything else runs (the serial
 * project is its teardown, so it runs after every other test). It proves no requirement: a target that
 * answers wrongly (a 403 where AUTH-001 says 401, a 5xx) is judged by the tests of those requirements,
 * while this step only stops a run whose base URL leads nowhere useful — no answer, or a redirect (an
 * http → https hop or a base URL without `/v1`).
 */
import { test, expect } from '../fixtures.ts';

test('the target answers at the API base', async ({ as }) => {
  const response = await as.anonymous().get('/meters');
  expect(response.status, 'GET /meters without credentials answers, and not with a redirect').toBeGreaterThanOrEqual(100);
  expect(response.status < 300 || response.status >= 400, `GET /meters answered ${response.status}, a redirect: check the base URL`).toBe(true);
});
