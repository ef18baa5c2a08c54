/**
 * Failing without recycling the worker (docs/design.md §5; docs/maintainers.md, "Failures keep the worker").
 *
 * Playwright stops a worker after every test whose status differs from its expected status, and the next
 * test pays a new worker's start-up: a target failing a hundred tests is judged many times slower than a
 * conformant one. A conformance test that failed (an assertion, an unparsable answer: an error thrown by
 * the test or a test-scoped fixture) leaves nothing behind in its worker — the worker's fixtures are the
 * profile, a rate governor, a redactor, the request ids seen and one request context, whose cookies each
 * test clears at its end (suites/fixtures.ts; a request still in flight records into the failed test's session).
 * So, on the test's last attempt, the suite's auto fixture marks such a failure as expected (`expectedStatus
 * 'failed'`) with the annotation KEPT_FAILURE: the worker goes on. The first reporter of the run
 * (suites/reporter/kept-failures.ts) then sets the test's expected status back to `passed` before any
 * other reporter or the runner's failure count sees it, so Playwright's failure status stays the truth
 * everywhere: exit code, `--max-failures`, `--last-failed`, `--retries`, every reporter, blob and merge.
 *
 * Kept as Playwright does it: a timeout (the test may still run), an interrupted test, an earlier attempt
 * of a test that will be retried, and any run whose config lacks the restoring reporter (then the failure
 * would look expected to Playwright's own reporters).
 */
import type { TestInfo } from '@playwright/test';

/** The annotation type a kept failure carries from the worker to the restoring reporter (removed there). */
export const KEPT_FAILURE = 'mms-kept-failure';

/** The file name of the reporter that restores kept failures (suites/reporter/kept-failures.ts). */
export const RESTORING_REPORTER = 'kept-failures.ts';

/** Whether the run's config has the reporter that turns kept failures back into failures. */
function restoredByReporter(testInfo: Pick<TestInfo, 'config'>): boolean {
  return testInfo.config.reporter.some(([name]) => name.endsWith(`/reporter/${RESTORING_REPORTER}`));
}

/**
 * Called when a test's fixtures are torn down: marks a failed test's last attempt as an expected failure
 * (and annotates it) so that Playwright keeps its worker. Returns whether it did. Never throws.
 */
export function keepWorkerAfterFailure(testInfo: Pick<TestInfo, 'status' | 'expectedStatus' | 'retry' | 'project' | 'config' | 'annotations'>): boolean {
  if (testInfo.status !== 'failed' || testInfo.expectedStatus !== 'passed') return false;
  if (testInfo.retry < testInfo.project.retries) return false;
  if (!restoredByReporter(testInfo)) return false;
  testInfo.annotations.push({ type: KEPT_FAILURE, description: 'failed; the worker was kept (suites/lib/kept-failure.ts)' });
  testInfo.expectedStatus = 'failed';
  return true;
}
