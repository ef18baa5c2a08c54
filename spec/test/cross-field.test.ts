/**
 * Cross-field rules of request bodies read as one sentence each (contract/cross-field.ts), not as
 * Ajv's oneOf/anyOf branch noise: member choice (meters, work orders), a discriminated command
 * (parts), and dependentSchemas (meter update).
 */
import { test, expect } from '@playwright/test';
import { compileRequestValidators } from '../../contract/validators.ts';

const validators = compileRequestValidators('full');
const errors = (operationId: string, body: unknown) => validators.get(operationId)!.validateBody!(body);
const VERSION = 'a'.repeat(64);

test('a meter create with neither or both of asset_id and location_id gets one sentence at the object', () => {
  const exactlyOne = [{ in: 'body', pointer: '/', message: 'must set exactly one of `asset_id` or `location_id`' }];
  expect(errors('createMeter', { name: 'm', meter_type: 'gauge', unit: 'psi' })).toEqual(exactlyOne);
  expect(errors('createMeter', { name: 'm', meter_type: 'gauge', unit: 'psi', asset_id: 'a', location_id: 'l' })).toEqual(exactlyOne);
  // Other failures stay beside it, each naming its field.
  expect(errors('createMeter', { name: 'm', meter_type: 'gauge', unit: 'psi', asset_id: 5 })).toEqual([{ in: 'body', pointer: '/asset_id', message: 'must be string' }]);
});

test('a work-order create with neither title nor workRequestId gets one sentence', () => {
  expect(errors('createWorkOrder', { priority: 'high' })).toEqual([{ in: 'body', pointer: '/', message: 'must set at least one of `title` or `workRequestId`' }]);
});

test('a meter update with both asset_id and location_id names the second and the rule', () => {
  expect(errors('updateMeter', { asset_id: 'a', location_id: 'l' })).toEqual([
    { in: 'body', pointer: '/location_id', message: 'must not be set together with `asset_id`: set at most one of `asset_id` or `location_id`' },
  ]);
});

test('a parts command gets the errors of the operation it names, or one sentence on operation', () => {
  expect(errors('commandWorkOrderParts', { operation: 'transition', idempotencyKey: 'k', expectedAggregateVersion: VERSION })).toEqual([
    { in: 'body', pointer: '/targetStatus', message: "must have required property 'targetStatus'" },
  ]);
  const row = { partId: 'p', locationId: 'l', quantity: 0 };
  expect(errors('commandWorkOrderParts', { operation: 'replace', idempotencyKey: 'k', expectedAggregateVersion: VERSION, items: [row] })).toEqual([
    { in: 'body', pointer: '/items/0/quantity', message: 'must be >= 1' },
  ]);
  const oneOfTwo = [{ in: 'body', pointer: '/operation', message: 'must be one of `transition` or `replace`' }];
  expect(errors('commandWorkOrderParts', { operation: 'bogus' })).toEqual(oneOfTwo);
  expect(errors('commandWorkOrderParts', {})).toEqual(oneOfTwo);
  expect(errors('commandWorkOrderParts', [1])).toEqual([{ in: 'body', pointer: '/', message: 'must be an object' }]);
});
