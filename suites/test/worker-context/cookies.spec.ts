/**
 * Run by suites/test/worker-context.test.ts through worker-context.config.ts; not a unit test. The target
 * sets a cookie on every answer and echoes the Cookie header it received as `{ "cookie": … }`.
 */
import { test, expect } from '../../fixtures.ts';

test('a test sends back the cookies it was given', async ({ as }) => {
  const client = as.anonymous();
  expect((await client.get('/echo')).body).toEqual({ cookie: null });
  expect((await client.get('/echo')).body).toEqual({ cookie: 'session=1' });
});

test('the next test of the worker starts without them', async ({ as }) => {
  expect((await as.anonymous().get('/echo')).body).toEqual({ cookie: null });
});
