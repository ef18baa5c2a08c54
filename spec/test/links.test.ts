/** The spec's OpenAPI links (contract/links.ts): well-formed, and covering what the description connects. */
import { test, expect } from '@playwright/test';
import { atPointer, evaluate, follow, fromListItem, loadLinks } from '../../contract/links.ts';

const links = loadLinks();
const has = (from: string, to: string) => links.some((l) => l.from.operationId === from && l.to.operationId === to);

test('every link fills exactly the path parameters of the operation it leads to', () => {
  expect(links.length).toBeGreaterThan(20);
  for (const l of links) {
    const wanted = [...l.to.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(Object.keys(l.parameters).sort(), `${l.from.operationId} → ${l.name}`).toEqual(wanted);
    for (const e of [...Object.values(l.parameters), ...Object.values(l.requestBody ?? {})]) expect(e, l.name).toMatch(/^\$(response\.body#\/|request\.path\.)/);
  }
});

test('the links connect what the description connects', () => {
  for (const [from, to] of [
    ['createWorkOrder', 'getWorkOrder'], ['createWorkOrder', 'updateWorkOrder'], ['createWorkOrder', 'deleteWorkOrder'],
    ['listWorkOrders', 'getWorkOrder'], ['listMeters', 'getMeter'], ['createMeter', 'archiveMeter'],
    ['getMeter', 'listMeterReadings'], ['createMeter', 'createMeterReading'], ['createWorkRequest', 'createWorkOrder'],
    ['createWorkOrder', 'listWorkOrderExpenses'], ['createWorkOrder', 'createWorkOrderExpense'], ['createWorkOrderExpense', 'retireWorkOrderExpense'],
    ['createWorkOrder', 'getWorkOrderParts'], ['getWorkOrderParts', 'commandWorkOrderParts'],
  ]) expect(has(from!, to!), `${from} → ${to}`).toBe(true);
  const approve = links.find((l) => l.from.operationId === 'createWorkRequest' && l.to.operationId === 'createWorkOrder')!;
  expect(approve.requestBody).toEqual({ workRequestId: '$response.body#/workRequest/id' });
});

test('runtime expressions read the response body, the request path and literals; follow fills the target path', () => {
  const ctx = { requestPath: { id: 'wo_1' }, responseBody: { data: [{ id: 'a/b' }], id: 'exp_9' } };
  expect(atPointer({ 'x/y': { '~': 1 } }, '/x~1y/~0')).toBe(1);
  expect(evaluate('$response.body#/data/0/id', ctx)).toBe('a/b');
  expect(evaluate('$request.path.id', ctx)).toBe('wo_1');
  expect(evaluate('literal', ctx)).toBe('literal');
  const retire = links.find((l) => l.to.operationId === 'retireWorkOrderExpense')!;
  expect(follow(retire, ctx)).toEqual({ path: '/work-orders/wo_1/other-costs/exp_9' });
  expect(follow(retire, { requestPath: {}, responseBody: {} }), 'an expression finding nothing').toBeUndefined();
  const first = links.find((l) => l.name === 'GetFirstMeter')!;
  expect(fromListItem(first)).toBe(true);
  expect(follow(first, ctx)).toEqual({ path: '/meters/a%2Fb' });
  expect(fromListItem(retire)).toBe(false);
});
