/** Signed cursors (Limits › Pagination): opaque, bound, expiring, unforgeable. */
import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { CursorCodec, CURSOR_TTL_MS, type CursorBinding } from '../http/cursor.ts';
import { ProblemError } from '../http/problem.ts';

const binding: CursorBinding = { endpoint: 'listMeters', org: 'org_a', filters: 'asset_id="x"', limit: 20, direction: 'asc' };

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ProblemError);
    expect((e as ProblemError).status).toBe(400);
    expect((e as ProblemError).code).toBe('validation_error');
    return (e as ProblemError).detail;
  }
  throw new Error('the cursor was accepted');
}

test('a cursor opens to its position under the same binding', () => {
  const codec = new CursorCodec(randomBytes(32), () => 0);
  expect(codec.open(codec.issue(binding, 'mtr_1'), binding)).toBe('mtr_1');
  expect(codec.open(codec.issue(binding, [5, 'r']), binding)).toEqual([5, 'r']);
});

test('every binding is checked', () => {
  const codec = new CursorCodec(randomBytes(32), () => 0);
  const c = codec.issue(binding, 'mtr_1');
  expect(refusal(() => codec.open(c, { ...binding, endpoint: 'listWorkOrders' }))).toMatch(/another endpoint/);
  expect(refusal(() => codec.open(c, { ...binding, org: 'org_b' }))).toMatch(/another organization/);
  expect(refusal(() => codec.open(c, { ...binding, filters: '' }))).toMatch(/other filters/);
  expect(refusal(() => codec.open(c, { ...binding, limit: 21 }))).toMatch(/page size/);
  expect(refusal(() => codec.open(c, { ...binding, direction: 'desc' }))).toMatch(/direction/);
});

test('forged, garbled and foreign cursors are refused', () => {
  const codec = new CursorCodec(randomBytes(32), () => 0);
  const c = codec.issue(binding, 'mtr_1');
  const [body, sig] = c.split('.');
  const forged = Buffer.from(JSON.stringify([1, 'listMeters', 'org_a', 'asset_id="x"', 20, 'asc', 9e9, 'mtr_0'])).toString('base64url');
  expect(refusal(() => codec.open(`${forged}.${sig}`, binding))).toMatch(/not a cursor issued/);
  expect(refusal(() => codec.open('garbage', binding))).toMatch(/not a cursor issued/);
  expect(refusal(() => codec.open(`${body}.`, binding))).toMatch(/not a cursor issued/);
  expect(refusal(() => new CursorCodec(randomBytes(32), () => 0).open(c, binding))).toMatch(/not a cursor issued/);
});

test('a cursor expires after its lifetime', () => {
  let now = 1_000_000;
  const codec = new CursorCodec(randomBytes(32), () => now);
  const c = codec.issue(binding, 'mtr_1');
  now += CURSOR_TTL_MS - 1000;
  expect(codec.open(c, binding)).toBe('mtr_1');
  now += 2000;
  expect(refusal(() => codec.open(c, binding))).toMatch(/expired/);
});
