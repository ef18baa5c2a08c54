/**
 * Failures keep the worker (suites/lib/kept-failure.ts, suites/reporter/kept-failures.ts): a failed test of
 * the suite's base `test` no longer makes Playwright start a new worker, and is still a failure to
 * everything that reads Playwright's status — exit code, the list reporter's failure lines, JSON, JUnit,
 * the last-run file of --last-failed, --max-failures and --retries. A tiny run (suites/test/kept-worker/:
 * two failing assertions, one pass, one crash, one worker) is played with and without the restoring reporter.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import { KEPT_FAILURE, keepWorkerAfterFailure } from '../lib/kept-failure.ts';
import { restoreKeptFailure } from '../reporter/kept-failures.ts';
import { playTinyRun, type TinyRun } from './tiny-run.ts';

type Played = TinyRun & { junit: string; lastFailed: string[] };

const FAILING = ['first requirement fails', 'second requirement fails', 'the test code crashes'];

/** Plays suites/test/kept-worker/ with `config` (kept-worker or plain) and extra Playwright arguments. */
async function play(config: 'kept-worker' | 'plain', args: string[] = [], dir = mkdtempSync(join(tmpdir(), 'kept-'))): Promise<Played> {
  const run = await playTinyRun(`suites/test/kept-worker/${config}.config.ts`, { dir, args: ['--last-failed-file', join(dir, 'last-run.json'), ...args] });
  const lastFailed = (JSON.parse(readFileSync(join(run.dir, 'last-run.json'), 'utf8')) as { failedTests: string[] }).failedTests;
  return { ...run, junit: readFileSync(join(run.dir, 'junit.xml'), 'utf8'), lastFailed };
}

const workers = (p: Played) => new Set([...p.tests.values()].flatMap((t) => t.results.map((r) => r.workerIndex)));

test.describe.configure({ mode: 'parallel' });
test.setTimeout(120_000);

test('a failed test keeps its worker and is a failure in the exit code, list, JSON, JUnit and last-run file', async () => {
  const kept = await play('kept-worker');
  expect(kept.code, kept.output).toBe(1);
  expect(workers(kept)).toEqual(new Set([0]));
  expect(kept.stats).toMatchObject({ expected: 1, unexpected: 3, flaky: 0 });
  for (const title of FAILING) {
    const t = kept.tests.get(title)!;
    expect(t.status, title).toBe('unexpected');
    expect(t.results.map((r) => r.status), title).toEqual(['failed']);
    expect(t.annotations.map((a) => a.type), title).not.toContain(KEPT_FAILURE);
  }
  expect(kept.tests.get('a requirement passes')!.status).toBe('expected');
  expect(kept.output).toContain('Error: a failing assertion');
  expect(kept.output).toContain("TypeError: Cannot read properties of null (reading 'data')");
  expect(kept.output).toMatch(/3 failed/);
  expect(kept.junit).toMatch(/<testsuites [^>]*tests="4" failures="2" skipped="0" errors="1"/);
  expect(kept.lastFailed).toHaveLength(3);
  // The same run without the restoring reporter: Playwright's default, one new worker after each failure.
  const plain = await play('plain');
  expect(plain.code).toBe(1);
  expect(workers(plain).size).toBe(3);
  expect(plain.stats).toMatchObject({ expected: 1, unexpected: 3, flaky: 0 });
  expect(plain.lastFailed.sort()).toEqual([...kept.lastFailed].sort());
});

test('--max-failures stops at the first kept failure', async () => {
  const stopped = await play('kept-worker', ['--max-failures', '1']);
  expect(stopped.code).toBe(1);
  expect(stopped.output).toContain('Testing stopped early after 1 maximum allowed failures');
  expect(stopped.stats.unexpected).toBe(1);
  const ran = [...stopped.tests.values()].filter((t) => t.results.some((r) => r.status === 'passed' || r.status === 'failed'));
  expect(ran.length).toBeLessThan(4);
});

test('--retries runs a failed test again; its last attempt keeps the worker and still fails', async () => {
  const retried = await play('kept-worker', ['--retries', '1']);
  expect(retried.code).toBe(1);
  expect(retried.stats).toMatchObject({ expected: 1, unexpected: 3, flaky: 0 });
  for (const title of FAILING) expect(retried.tests.get(title)!.results.map((r) => [r.retry, r.status]), title).toEqual([[0, 'failed'], [1, 'failed']]);
});

test('--last-failed reruns exactly the kept failures', async () => {
  const first = await play('kept-worker');
  const rerun = await play('kept-worker', ['--last-failed'], first.dir);
  expect(rerun.code).toBe(1);
  expect([...rerun.tests.entries()].filter(([, t]) => t.results.length > 0).map(([title]) => title).sort()).toEqual([...FAILING].sort());
});

test.describe('the two halves, alone', () => {
  const info = (over: Partial<Parameters<typeof keepWorkerAfterFailure>[0]>) => ({
    status: 'failed' as const, expectedStatus: 'passed' as const, retry: 0, project: { retries: 0 }, annotations: [] as Array<{ type: string; description?: string }>,
    config: { reporter: [['list', undefined], [resolve(ROOT, 'suites/reporter/kept-failures.ts'), undefined]] },
    ...over,
  }) as unknown as Parameters<typeof keepWorkerAfterFailure>[0];

  test('the worker keeps only a failed last attempt, and only when the restoring reporter runs', () => {
    const failed = info({});
    expect(keepWorkerAfterFailure(failed)).toBe(true);
    expect(failed.expectedStatus).toBe('failed');
    expect(failed.annotations.map((a) => a.type)).toEqual([KEPT_FAILURE]);
    for (const [what, over] of [
      ['passed', { status: 'passed' }], ['timed out', { status: 'timedOut' }], ['interrupted', { status: 'interrupted' }], ['skipped', { status: 'skipped' }],
      ['a retry follows', { retry: 0, project: { retries: 1 } }], ['declared to fail', { expectedStatus: 'failed' }],
      ['no restoring reporter', { config: { reporter: [['list', undefined]] } }],
    ] as const) {
      const t = info(over as never);
      const before = t.expectedStatus;
      expect(keepWorkerAfterFailure(t), what).toBe(false);
      expect(t.expectedStatus, what).toBe(before);
      expect(t.annotations, what).toEqual([]);
    }
    expect(keepWorkerAfterFailure(info({ retry: 2, project: { retries: 2 } as never }))).toBe(true);
  });

  test('the reporter restores a kept failure and leaves every other result alone', () => {
    const kept = { expectedStatus: 'failed' as const, annotations: [{ type: KEPT_FAILURE }, { type: 'issue' }] };
    const result = { status: 'failed' as const, annotations: [{ type: KEPT_FAILURE }, { type: 'issue' }] };
    expect(restoreKeptFailure(kept, result)).toBe(true);
    expect(kept.expectedStatus).toBe('passed');
    expect(kept.annotations).toEqual([{ type: 'issue' }]);
    expect(result.annotations).toEqual([{ type: 'issue' }]);
    const declared = { expectedStatus: 'failed' as const, annotations: [{ type: 'fail' }] };
    expect(restoreKeptFailure(declared, { status: 'failed', annotations: [{ type: 'fail' }] })).toBe(false);
    expect(declared.expectedStatus).toBe('failed');
  });
});
