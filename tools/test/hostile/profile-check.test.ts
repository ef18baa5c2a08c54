/**
 * `profile check` (and `run`'s provisioning check, the same code) facing every switch of the hostile
 * target: it ends with its report or one clear line (the CLI prints a UsageError as one line, exit 2),
 * and neither holds a secret of the profile (keys, an `env:` header value, a credential header) or a
 * raw control character — also when the target hangs and Playwright's call log (with the request's
 * headers) is in the error.
 */
import { test, expect } from '@playwright/test';
import { parseProfile } from '../../../contract/profile.ts';
import { UsageError } from '../../../cli/exit-codes.ts';
import { runCheck } from '../../../cli/profile.ts';
import { formatCheck } from '../../../cli/profile-check.ts';
import { HOSTILE_SWITCHES, startHostile } from './server.ts';
import { expectNoSecret, expectPlainConsole, hostileProfileText, SECRETS } from './checks.ts';

for (const mode of HOSTILE_SWITCHES) {
  test(`profile check facing ${mode}: its report or one clear line, no secret, no control character`, async () => {
    const hostile = await startHostile(mode);
    try {
      const profile = parseProfile(hostileProfileText(hostile.baseUrl), 'hostile.json', { HOSTILE_TENANT: SECRETS.tenant });
      let printed: string;
      try {
        printed = formatCheck(await runCheck(profile, hostile.baseUrl, 700));
        expect(printed).toMatch(/requests sent\n$/);
      } catch (e) {
        expect(e).toBeInstanceOf(UsageError);
        printed = (e as Error).message;
        expect(printed.split('\n')).toHaveLength(1);
      }
      expect(hostile.requests).toBeGreaterThan(0);
      expectNoSecret(printed, `profile check output: ${printed}`);
      expectPlainConsole(printed, `profile check output: ${JSON.stringify(printed)}`);
    } finally {
      await hostile.stop();
    }
  });
}
