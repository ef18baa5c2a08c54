/**
 * Global setup of a conformance run (docs/design.md §5), in Playwright's runner process. The CLI
 * (`mms-conformance run`, cli/run.ts) resolves the target before it starts the runner — a profile's
 * target checked reachable, or the embedded mock started in the CLI's process (cli/embedded-target.ts)
 * — and hands it over through the run's environment (contract/run-env.ts). This setup only records the
 * runner's start for the timings, and stops a run started without the CLI with one clear line.
 */
import { readRunEnv } from '../../contract/run-env.ts';
import { markTime, processStart } from '../../contract/timings.ts';

export default function globalSetup(): void {
  markTime('runner.start', processStart());
  markTime('globalSetup.start');
  const run = readRunEnv();
  markTime('globalSetup.end');
  if (!run.targetProfile || !run.targetUrl || !run.runDir) throw new Error('no target: run the suite through `mms-conformance run` (it starts the embedded mock or checks the profile\'s target)');
}
