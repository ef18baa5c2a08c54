/**
 * PreparedCache (suites/lib/prepared-cache.ts): one prepared request per key until spoiled or taken; a
 * failed preparation is not kept; a taken request comes back only after a safe method's expected
 * success; keys share records, and spoiling one key's request spoils its records and every request naming
 * them; a valid create's record is shared; `workerPrepared` is one cache for every test file of a worker (a tiny Playwright run).
 */
import { test, expect } from '@playwright/test';
import { PreparedCache, leftRecordAsItWas } from '../lib/prepared-cache.ts';
import type { PreparedRequest, SharedRecords } from '../recipes/recipe.ts';
import { playTinyRun } from './tiny-run.ts';
import { createdRecord } from '../recipes/index.ts';
import type { ApiResponse } from '../lib/client.ts';

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
  const failed = await cache.take('getMeter', read);
  expect(cache.has('getMeter')).toBe(false);
  expect(cache.returnIfUnchanged('getMeter', failed, 404), 'a read that failed may mean the record is gone').toBe(false);
  const succeeded = await cache.take('getMeter', read);
  expect(succeeded.path).toBe('/meters/m2');
  expect(cache.returnIfUnchanged('getMeter', succeeded, 200)).toBe(true);
  expect((await cache.get('getMeter', read)).path).toBe('/meters/m2');

  const write = async () => request(`/meters/m${++made}`, 'PATCH');
  const patch = await cache.take('updateMeter', write);
  expect(cache.returnIfUnchanged('updateMeter', patch, 200), "a write's success may have changed the record").toBe(false);
  expect((await cache.get('updateMeter', write)).path).toBe('/meters/m4');
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

/** A cache whose `meter` record counts its makes, with the requests of three meter operations built on it. */
function meterCache() {
  const cache = new PreparedCache();
  let meters = 0;
  const on = (method: string, suffix = '') => (records: SharedRecords) =>
    records.record('meter', async () => `m${++meters}`).then((id) => request(`/meters/${id}${suffix}`, method, method === 'DELETE' ? 204 : 200));
  return { cache, made: () => meters, getMeter: on('GET'), archiveMeter: on('DELETE'), listMeterReadings: on('GET', '/readings') };
}

test("the operations of one record share it: one make serves every key's request", async () => {
  const m = meterCache();
  expect((await m.cache.get('getMeter', m.getMeter)).path).toBe('/meters/m1');
  expect((await m.cache.get('archiveMeter', m.archiveMeter)).path).toBe('/meters/m1');
  expect((await m.cache.get('listMeterReadings', m.listMeterReadings)).path).toBe('/meters/m1/readings');
  expect(m.made()).toBe(1);
});

test("spoiling one key's request spoils its record and every other request naming it", async () => {
  const m = meterCache();
  await m.cache.get('getMeter', m.getMeter);
  await m.cache.get('listMeterReadings', m.listMeterReadings);
  m.cache.spoil('archiveMeter');
  expect(m.cache.has('getMeter'), 'a key never prepared names no record').toBe(true);
  await m.cache.get('archiveMeter', m.archiveMeter);
  m.cache.spoil('archiveMeter');
  expect([m.cache.has('getMeter'), m.cache.has('listMeterReadings')]).toEqual([false, false]);
  expect((await m.cache.get('getMeter', m.getMeter)).path).toBe('/meters/m2');
  expect(m.made()).toBe(2);
});

test("a taken read's expected success gives back its record; a taken write's success does not", async () => {
  const m = meterCache();
  await m.cache.get('listMeterReadings', m.listMeterReadings);
  const read = await m.cache.take('getMeter', m.getMeter);
  expect(m.cache.has('listMeterReadings'), 'while taken, no other request names the record').toBe(false);
  expect(m.cache.returnIfUnchanged('getMeter', read, 200)).toBe(true);
  expect((await m.cache.get('listMeterReadings', m.listMeterReadings)).path).toBe('/meters/m1/readings');
  const write = await m.cache.take('archiveMeter', m.archiveMeter);
  expect(write.path).toBe('/meters/m1');
  expect(m.cache.returnIfUnchanged('archiveMeter', write, 204)).toBe(false);
  expect((await m.cache.get('getMeter', m.getMeter)).path).toBe('/meters/m2');
  expect(m.made()).toBe(2);
});

test("a valid create's record is shared when none of its kind is, and serves the next recipe", async () => {
  const m = meterCache();
  const ok = { status: 201, body: { data: { id: 'made' } } } as ApiResponse;
  const createMeter = request('/meters', 'POST', 201);
  expect(createdRecord('createMeter', createMeter, { ...ok, status: 400 } as ApiResponse), 'a refused create made nothing').toBeUndefined();
  expect(createdRecord('createWorkOrder', request('/work-orders', 'POST', 201), ok), 'work orders are not shared from creates').toBeUndefined();
  const created = createdRecord('createMeter', createMeter, ok)!;
  expect(created).toEqual({ kind: 'meter', record: { id: 'made' } });
  expect(m.cache.share(created.kind, 'made')).toBe(true);
  expect((await m.cache.get('getMeter', m.getMeter)).path).toBe('/meters/made');
  expect(m.cache.share('meter', 'another'), 'a shared record is not replaced').toBe(false);
  expect(m.made()).toBe(0);
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
