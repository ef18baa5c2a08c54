/** Run by suites/test/prepared-cache.test.ts through shared-prepared.config.ts; not a unit test. */
import { test, expect } from '@playwright/test';
import { workerPrepared } from '../../lib/prepared-cache.ts';

test('the second file gets the request the first file prepared', async () => {
  const request = await workerPrepared.get('getMeter', async () => ({ method: 'GET', path: '/meters/prepared-again', expect: 200 }));
  expect(request.path).toBe(`/meters/prepared-by-${process.pid}`);
});
