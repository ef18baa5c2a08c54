/**
 * PreparedCache (suites/lib/prepared-cache.ts): one prepared request per key until spoiled or taken; a
 * failed preparation is not kept; a taken request comes back only after a safe method's expected
 * success; `workerPrepared` is one cache for every test file of a worker (a tiny Playwright run).
 */
import { test, expect } from '@playwright/test';
import { PreparedCache, leftRecordAsItWas } from '../lib/prepared-cache.ts';
import type { PreparedRequest } from '../recipes/recipe.ts';
import { playTinyRun } from './tiny-run.ts';

const request = (path: string, method = 'GET', expected = 200): PreparedRequest => ({ method, path, expect: expected });

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

test('a taken request leaves the cache; it comes back only after a safe method answered its expected status', async () => {
  const cache = new PreparedCache();
  let made = 0;
  const read = async () => request(`/meters/m${++made}`);
  const taken = await cache.take('getMeter', read);
  expect(cache.has('getMeter')).toBe(false);
  expect(cache.returnIfUnchanged('getMeter', taken, 404), 'a read that failed may mean the record is gone').toBe(false);
  expect(cache.returnIfUnchanged('getMeter', taken, 200)).toBe(true);
  expect((await cache.get('getMeter', read)).path).toBe('/meters/m1');

  const write = async () => request(`/meters/m${++made}`, 'PATCH');
  const patch = await cache.take('updateMeter', write);
  expect(cache.returnIfUnchanged('updateMeter', patch, 200), "a write's success may have changed the record").toBe(false);
  expect((await cache.get('updateMeter', write)).path).toBe('/meters/m3');
});

test('a taken request does not replace one prepared meanwhile', async () => {
  const cache = new PreparedCache();
  const taken = await cache.take('getMeter', async () => request('/meters/m1'));
  await cache.get('getMeter', async () => request('/meters/m2'));
  expect(cache.returnIfUnchanged('getMeter', taken, 200)).toBe(false);
  expect((await cache.get('getMeter', async () => request('/meters/m3'))).path).toBe('/meters/m2');
});

test('only GET and HEAD with the expected status leave the record as it was', () => {
  expect(leftRecordAsItWas(request('/a', 'GET'), 200)).toBe(true);
  expect(leftRecordAsItWas(request('/a', 'head'), 200)).toBe(true);
  expect(leftRecordAsItWas(request('/a', 'GET'), 304)).toBe(false);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(leftRecordAsItWas(request('/a', method, 204), 204), method).toBe(false);
});

test('workerPrepared is one cache for every test file a worker loads', async () => {
  test.setTimeout(120_000);
  const run = await playTinyRun('suites/test/shared-prepared/shared-prepared.config.ts');
  const first = run.tests.get('the first file prepares a request in the worker cache')!.results[0]!;
  const second = run.tests.get('the second file gets the request the first file prepared')!.results[0]!;
  expect([first.status, second.status], `${run.output}\n${JSON.stringify([first, second].flatMap((r) => r.errors))}`).toEqual(['passed', 'passed']);
  expect(second.workerIndex, 'both files ran in the same worker').toBe(first.workerIndex);
  expect(run.code).toBe(0);
});
