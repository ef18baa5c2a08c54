/** Run by suites/test/kept-failure.test.ts through kept-worker.config.ts and plain.config.ts; not a unit test. */
import { test, expect } from '../../fixtures.ts';

test('first requirement fails', () => {
  expect(1, 'a failing assertion').toBe(2);
});

test('a requirement passes', () => {
  expect(1).toBe(1);
});

test('second requirement fails', () => {
  expect({ cursor: null }).toEqual({ cursor: 'abc' });
});

test('the test code crashes', () => {
  const body = JSON.parse('null') as { data: unknown[] };
  expect(body.data.length).toBe(0);
});
