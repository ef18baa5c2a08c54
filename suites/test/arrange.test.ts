/**
 * Preconditions are never verdicts (suites/lib/arrange.ts; docs/maintainers.md, "Writing a test"): a tiny
 * run of the suite's base `test` (suites/test/arrange/) shows every failure while arranging — a status,
 * a body without the record, a write that did not apply — ending the test skipped as "not assessed:
 * precondition not met: <step>: <reason>", a skip decided inside keeping its own reason, and an
 * assertion after arranging still failing the test.
 */
import { test, expect } from '@playwright/test';
import { playTinyRun, type TinyRun } from './tiny-run.ts';
import { reasonOf } from '../lib/arrange.ts';

// One worker plays the tiny run once for all of them.
test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

let run: TinyRun;
test.beforeAll(async () => {
  run = await playTinyRun('suites/test/arrange/arrange.config.ts');
});

/** The test's status and its skip reason, by title. */
const outcome = (title: string) => {
  const t = run.tests.get(title);
  expect(t, `${title} ran: ${run.output.slice(-500)}`).toBeTruthy();
  const skip = (t!.annotations as Array<{ type: string; description?: string }>).find((a) => a.type === 'skip');
  return { status: t!.results[0]!.status, reason: skip?.description ?? '' };
};

test('a failure while arranging ends the test not assessed, with the step and the reason', () => {
  const status = outcome('an unexpected status while arranging');
  expect(status.status).toBe('skipped');
  expect(status.reason).toMatch(/^not assessed: precondition not met: create a meter \(POST \/meters\): POST \/meters answered 200/);
  const body = outcome('a body without the record while arranging');
  expect(body).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^not assessed: precondition not met: create a work order: .*Cannot read properties of undefined/) });
});

test('a write answered 2xx whose effect does not read back is a precondition not met', () => {
  expect(outcome('a write answered 2xx that did not apply')).toEqual({
    status: 'skipped',
    reason: 'not assessed: precondition not met: complete the work order: PATCH /work-orders/w1 answered 2xx but the record read back does not show status = "done" (read back: "open")',
  });
});

test('a skip decided inside arranging keeps its reason; nested steps name the innermost', () => {
  expect(outcome('a missing capability decided inside arranging keeps its own reason')).toEqual({ status: 'skipped', reason: 'not assessed: fixtures.pendingWorkRequestIds is empty' });
  expect(outcome('a nested arranging failure names the innermost step')).toEqual({ status: 'skipped', reason: 'not assessed: precondition not met: inner: gone' });
});

test('arranging that succeeds leaves the verdict to the assertions', () => {
  expect(outcome('arranging that succeeds returns its value and the assertions decide').status).toBe('passed');
  expect(outcome('an assertion after arranging fails the test').status).toBe('failed');
  expect(run.stats).toMatchObject({ expected: 1, unexpected: 1, skipped: 5 });
});

test('a reason is one line without colour codes, at most 300 characters', () => {
  const reason = reasonOf(new Error(`\u001b[31mexpected\u001b[39m 201\n\nReceived: 200\n    at stack (x.ts:1:1)\n${'y'.repeat(400)}`));
  expect(reason).toBe(`expected 201 Received: 200 at stack (x.ts:1:1)`);
  expect(reasonOf(new Error('z'.repeat(400)))).toHaveLength(300);
});
