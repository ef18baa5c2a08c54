/**
 * Global setup of a conformance run (docs/design.md §5), in Playwright's runner process. The CLI
 * (`mms-conformance run`, cli/run.ts) resolves the target before it starts the runner — a profile's
 * target checked reachable, or the embedded mock started in the CLI's process (cli/embedded-target.ts)
 * — and hands it over through the run's environment (contract/run-env.ts). This setup records the
 * runner's start for the timings, stops a run started without the CLI with one clear line, and checks
 * that the target answers HTTP at the API base before any test file loads or any worker starts.
 */
import { request } from '@playwright/test';
import { requestUse, type TargetProfile } from '../../contract/profile.ts';
import { readRunEnv } from '../../contract/run-env.ts';
import { markTime, processStart } from '../../contract/timings.ts';
import { requestTimeoutOf } from '../lib/client.ts';
import { targetProfile } from '../lib/target.ts';

/**
 * The target answers at the API base: `GET /meters` without credentials gets an answer, and not a
 * redirect (an http → https hop, a base URL without `/v1`). It proves no requirement — a target that
 * answers wrongly (a 403 where AUTH-001 says 401, a 5xx) is judged by the tests of those requirements —
 * it only stops a run whose base URL leads nowhere useful, before any test: the run ends without a
 * verdict (exit 2) with this Error's one line. Sent with the profile's request options (headers, TLS,
 * proxy) and the run's request timeout (half the test timeout, at most 30 s), but at least 1 s.
 */
export async function checkTargetAnswers(profile: Pick<TargetProfile, 'baseUrl' | 'headers' | 'tls' | 'proxy'>, testTimeoutMs: number): Promise<void> {
  const url = `${profile.baseUrl.replace(/\/+$/, '')}/meters`;
  const context = await request.newContext(requestUse(profile));
  try {
    let status: number;
    try {
      status = (await context.get(url, { maxRedirects: 0, failOnStatusCode: false, timeout: Math.max(1_000, requestTimeoutOf(testTimeoutMs)) })).status();
    } catch (e) {
      throw new Error(`the target does not answer at ${url}: ${(e as Error).message.split('\n')[0]}`);
    }
    if (status >= 300 && status < 400) throw new Error(`GET ${url} answered ${status}, a redirect: check the base URL`);
  } finally {
    await context.dispose();
  }
}

export default async function globalSetup(): Promise<void> {
  markTime('runner.start', processStart());
  markTime('globalSetup.start');
  const run = readRunEnv();
  if (!run.targetProfile || !run.targetUrl || !run.runDir) throw new Error('no target: run the suite through `mms-conformance run` (it starts the embedded mock or checks the profile\'s target)');
  await checkTargetAnswers(targetProfile(), run.testTimeout ?? 60_000);
  markTime('globalSetup.end');
}
