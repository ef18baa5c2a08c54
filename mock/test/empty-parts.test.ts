/**
 * A new work order's parts section (mock/domain/parts-section.ts `emptyParts`) holds the one shared,
 * read-only empty map of idempotency records: no map per work order, and a write in place (which would
 * leak one section's key into every other) throws instead of happening.
 */
import { test, expect } from '@playwright/test';
import { emptyParts } from '../domain/parts-section.ts';

test('new sections share one empty idempotency map that refuses writes in place', () => {
  const a = emptyParts();
  const b = emptyParts();
  expect(a).not.toBe(b);
  expect(a.lines).not.toBe(b.lines);
  expect(a.idempotency).toBe(b.idempotency);
  expect(a.idempotency.size).toBe(0);
  expect(() => a.idempotency.set('k', { fingerprint: 'f', status: 200, body: '{}' })).toThrow(/read-only/);
  expect(() => a.idempotency.delete('k')).toThrow(/read-only/);
  expect(() => a.idempotency.clear()).toThrow(/read-only/);
  expect(b.idempotency.size).toBe(0);
  const copied = new Map(a.idempotency).set('k', { fingerprint: 'f', status: 200, body: '{}' });
  expect(copied.get('k')?.status).toBe(200);
  expect(a.idempotency.has('k')).toBe(false);
});
