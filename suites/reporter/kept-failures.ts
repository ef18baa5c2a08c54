/**
 * The first reporter of a conformance run (suites/playwright.config.ts): a test whose failure its worker
 * marked as expected to keep the worker (suites/lib/kept-failure.ts, annotation KEPT_FAILURE) is a failure
 * again — its expected status goes back to `passed` and the annotation is dropped — before any later
 * reporter (the kit's, Playwright's list, HTML, JUnit, JSON, blob), the runner's `--max-failures` count
 * and `--last-failed` file read it. Playwright calls reporters in their config order, and counts a failure
 * for --max-failures after all of them saw the test end. Prints nothing.
 */
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { KEPT_FAILURE } from '../lib/kept-failure.ts';

/** Restores one test's failure; returns whether the result was a kept failure. */
export function restoreKeptFailure(test: Pick<TestCase, 'expectedStatus' | 'annotations'>, result: Pick<TestResult, 'status' | 'annotations'>): boolean {
  if (!result.annotations.some((a) => a.type === KEPT_FAILURE)) return false;
  const others = (list: TestResult['annotations']) => list.filter((a) => a.type !== KEPT_FAILURE);
  result.annotations = others(result.annotations);
  test.annotations = others(test.annotations);
  if (result.status === 'failed' && test.expectedStatus === 'failed') test.expectedStatus = 'passed';
  return true;
}

export default class KeptFailuresReporter implements Reporter {
  onTestEnd(test: TestCase, result: TestResult): void {
    restoreKeptFailure(test, result);
  }

  printsToStdio(): boolean {
    return false;
  }
}
