/**
 * The conformance reporter as `run` uses it (suites/playwright.config.ts): the same reporter, except that
 * Playwright's notice "Testing stopped early after N maximum allowed failures" (`run --max-failures N`,
 * `-x`) is what it says, an early end of a run that has a verdict (the tests not run are not assessed),
 * not an error before the tests.
 */
import type { TestError } from '@playwright/test/reporter';
import ConformanceReporter from './reporter/conformance-reporter.ts';

/** Whether `error` is Playwright's notice that --max-failures stopped the run. */
export function isStoppedEarly(error: TestError): boolean {
  return /^Testing stopped early after \d+ maximum allowed failures?/.test(plain(error));
}

/** The error's message without colours (Playwright colours this one red when FORCE_COLOR is set). */
const plain = (error: TestError) => (error.message ?? '').replace(/\u001b\[[0-9;]*m/g, '');

export default class RunReporter extends ConformanceReporter {
  override onError(error: TestError): void {
    if (isStoppedEarly(error)) {
      process.stdout.write(`\n${plain(error).split('\n')[0]!.replace(/\.+$/, '')} (--max-failures); the tests not run are not assessed.\n`);
      return;
    }
    super.onError(error);
  }
}
