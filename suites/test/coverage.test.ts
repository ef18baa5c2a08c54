/** The report's API coverage (contract/report/coverage.ts; docs/generative.md, "Coverage"). */
import { test, expect } from '@playwright/test';
import { loadOperations } from '../../contract/openapi.ts';
import { computeCoverage, documentedInputs, mergeObserved, observedOf } from '../../contract/report/coverage.ts';
import { coverageHtml } from '../../contract/report/coverage-html.ts';

const ops = loadOperations();
const op = (id: string) => ops.find((o) => o.operationId === id)!;

test('observed: statuses, path and query parameters and top-level body members of routed exchanges', () => {
  const observed = observedOf([
    { operation: op('listMeters'), url: 'http://x/v1/meters?limit=5&direction=desc', status: 200 },
    { operation: op('listMeters'), url: 'http://x/v1/meters?limit=0', status: 400 },
    { operation: op('createMeterReading'), url: 'http://x/v1/meters/m1/readings', status: 201, requestBody: '{"value":1,"notes":"x"}' },
    { operation: op('createMeterReading'), url: 'http://x/v1/meters/m1/readings', status: 400, requestBody: '{"value":… (9000 characters)' },
    { operation: op('getMeter'), url: 'http://x/v1/meters/m1', status: 0 },
    { url: 'http://x/v1/nowhere', status: 404 },
  ]);
  expect(observed).toEqual({
    listMeters: { statuses: [200, 400], inputs: ['query:direction', 'query:limit'] },
    createMeterReading: { statuses: [201, 400], inputs: ['body:notes', 'body:value', 'path:id'] },
  });
});

test('coverage per operation: documented statuses and inputs observed, never reached, and undocumented statuses', () => {
  const observed = mergeObserved([
    { listMeters: { statuses: [200], inputs: ['query:limit'] } },
    { listMeters: { statuses: [400, 200, 418], inputs: ['query:meter_type', 'query:limit'] } },
  ]);
  const coverage = computeCoverage(ops, observed);
  const meters = coverage.operations.find((o) => o.operationId === 'listMeters')!;
  expect(meters.requests).toBe(true);
  expect(meters.statuses).toEqual({ documented: [200, 400, 401, 403, 429, 500], observed: [200, 400], missing: [401, 403, 429, 500], undocumented: [418] });
  expect(meters.inputs.observed).toEqual(['query:limit', 'query:meter_type']);
  expect(meters.inputs.missing).toEqual(['query:asset_id', 'query:category', 'query:cursor', 'query:direction', 'query:location_id']);
  const untouched = coverage.operations.find((o) => o.operationId === 'getMeter')!;
  expect(untouched.requests).toBe(false);
  expect(untouched.statuses.observed).toEqual([]);
  expect(coverage.operations).toHaveLength(ops.length);
  expect(coverage.totals.operations).toEqual({ documented: ops.length, observed: 1 });
  expect(coverage.totals.statuses.observed).toBe(2);
  expect(coverage.totals.inputs.observed).toBe(2);
  const html = coverageHtml(coverage);
  expect(html).toContain('1/55 operations reached');
  expect(html).toContain('<code class="hot">418</code>');
});

test('documented inputs: path and query parameters and the JSON body members of every branch', () => {
  expect(documentedInputs(op('createMeterReading'))).toContain('path:id');
  expect(documentedInputs(op('createMeterReading'))).toContain('body:value');
  const parts = documentedInputs(op('commandWorkOrderParts'));
  for (const m of ['body:operation', 'body:idempotencyKey', 'body:expectedAggregateVersion', 'body:targetStatus', 'body:items']) expect(parts).toContain(m);
  expect(documentedInputs(op('uploadWorkRequestAttachment')).filter((i) => i.startsWith('body:')), 'a non-JSON body has no members').toEqual([]);
});
