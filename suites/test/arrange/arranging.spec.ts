/**
 * Scenarios for suites/test/arrange.test.ts: the suite's base `test` (suites/fixtures.ts) and its
 * `arrange` fixture, failing in each way arranging can fail, and asserting outside it.
 */
import { test, expect } from '../../fixtures.ts';
import { ArrangeError, arrangingNow, expectApplied } from '../../lib/arrange.ts';
import { notAssessed } from '../../lib/needs.ts';

test('an unexpected status while arranging', async ({ arrange }) => {
  await arrange('create a meter (POST /meters)', async () => expect(200, 'POST /meters answered 200').toBe(201));
  expect(true, 'never reached').toBe(false);
});

test('a body without the record while arranging', async ({ arrange }) => {
  const body: any = {};
  await arrange('create a work order', async () => body.data.id);
});

test('a write answered 2xx that did not apply', async ({ arrange }) => {
  await arrange('complete the work order', async () => expectApplied({ id: 'w1', status: 'open' }, { status: 'done' }, 'PATCH /work-orders/w1'));
});

test('a missing capability decided inside arranging keeps its own reason', async ({ arrange }) => {
  await arrange('find a pending work request', async () => arrange('lease one', async () => notAssessed('fixtures.pendingWorkRequestIds is empty')));
});

test('a nested arranging failure names the innermost step', async ({ arrange }) => {
  await arrange('outer', async () => arrange('inner', async () => { throw new ArrangeError('gone'); }));
});

test('arranging that succeeds returns its value and the assertions decide', async ({ arrange }) => {
  let during: string | undefined;
  const id = await arrange('create a thing', async () => { during = arrangingNow(); return 'thing-1'; });
  expect(during).toBe('create a thing');
  expect(arrangingNow()).toBeUndefined();
  // Steps run at once each see their own description, also after awaiting while the other runs.
  const tick = () => new Promise((r) => setTimeout(r, 5));
  const seen = await Promise.all(['first', 'second'].map((what) => arrange(what, async () => {
    const before = arrangingNow();
    await tick();
    return [before, arrangingNow()];
  })));
  expect(seen).toEqual([['first', 'first'], ['second', 'second']]);
  expect(arrangingNow()).toBeUndefined();
  expect(id).toBe('thing-1');
  expectApplied({ reading_at: '2026-01-01T00:00:00.000Z', value: 3, stock: '4', extra: [1] }, { reading_at: '2026-01-01T00:00:00Z', value: 3, stock: 4, extra: [2] }, 'POST');
  expect(() => expectApplied({ note: null }, { note: 'x' }, 'POST')).toThrow(/note = "x" \(read back: null\)/);
});

test('an assertion after arranging fails the test', async ({ arrange }) => {
  const value = await arrange('create a thing', async () => 2);
  expect(value, 'the requirement under test').toBe(3);
});
