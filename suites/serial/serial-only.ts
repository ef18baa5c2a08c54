/**
 * The serial project runs as the setup project's teardown, so Playwright runs it in every shard (the
 * run's selection reaches it as the project's `grep`, suites/playwright.config.ts). Its tests spend
 * dedicated rate-limit keys and move the clock, so they run once: in the first shard.
 */
import { test } from '@playwright/test';

/** Skips the calling file's tests outside shard 1. */
export function runSeriallyOnce(): void {
  test.beforeEach(({}, testInfo) => {
    const shard = testInfo.config.shard;
    test.skip(!!shard && shard.current !== 1, `runs in shard 1 of ${shard?.total} only`);
  });
}
