/**
 * The `setup` project: the target answers with the API's problem details before anything else runs
 * (the serial project is its teardown, so it runs after every other test).
 */
import { test, expect } from '../fixtures.ts';

test('the target answers the API', { tag: ['@AUTH-001'] }, async ({ as }) => {
  const response = await as.anonymous().get('/meters');
  expect(response.status, 'GET /meters without credentials').toBe(401);
});
