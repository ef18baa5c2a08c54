/**
 * The serial project runs as the setup project's teardown, so Playwright runs it in every shard and
 * whatever --grep says. Its tests spend dedicated rate-limit keys and move the clock, so they run once:
 * in the first shard, and only when the CLI's selection (MMS_GREP) includes them.
 */
import { test } from '@playwright/test';

export function runSeriallyOnce(): void {
  test.beforeEach(({}, testInfo) => {
    const shard = testInfo.config.shard;
    test.skip(!!shard && shard.current !== 1, `runs in shard 1 of ${shard?.total} only`);
    const grep = process.env.MMS_GREP;
    test.skip(!!grep && !new RegExp(grep).test(`${testInfo.titlePath.join(' ')} ${testInfo.tags.join(' ')}`), 'not selected by this run');
  });
}
