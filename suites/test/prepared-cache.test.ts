/** PreparedCache (suites/lib/prepared-cache.ts): one prepared request per key until spoiled; a failed preparation is not kept. */
import { test, expect } from '@playwright/test';
import { PreparedCache } from '../lib/prepared-cache.ts';
import type { PreparedRequest } from '../recipes/recipe.ts';

const request = (path: string): PreparedRequest => ({ method: 'GET', path, expect: 200 });

test('the first preparation serves every get of its key until spoiled', async () => {
  const cache = new PreparedCache();
  let made = 0;
  const prepare = async () => request(`/meters/m${++made}`);
  expect((await cache.get('getMeter', prepare)).path).toBe('/meters/m1');
  expect((await cache.get('getMeter', prepare)).path).toBe('/meters/m1');
  expect((await cache.get('listMeters', prepare)).path).toBe('/meters/m2');
  cache.spoil('getMeter');
  expect((await cache.get('getMeter', prepare)).path).toBe('/meters/m3');
  expect(made).toBe(3);
});

test('a preparation that failed is prepared again by the next get', async () => {
  const cache = new PreparedCache();
  await expect(cache.get('getMeter', async () => { throw new Error('201 expected, got 500'); })).rejects.toThrow('500');
  expect((await cache.get('getMeter', async () => request('/meters/m1'))).path).toBe('/meters/m1');
});
