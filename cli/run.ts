/**
 * `mms-conformance run` (docs/vendors.md, "The command line"): one conformance run against a target (or the
 * embedded mock), through Playwright with the suite's config; writes every report format, applies
 * waivers, writes the certification manifest (cli/manifest.ts), compares with a baseline, and maps the verdict to an exit code (cli/exit-codes.ts).
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';
import { readRunEnv, type RunEnv } from '../contract/run-env.ts';
import { diffReports, formatDiff } from '../suites/reporter/diff.ts';
import { REPORT_FILES } from '../suites/reporter/write.ts';
import { EXIT, UsageError, verdictExitCode } from './exit-codes.ts';
import { checkedOutput, checkedWaivers } from './inputs.ts';
import { loadSigningKey, MANIFEST_FILE, SIGNATURE_FILE, writeManifest } from './manifest.ts';
import { readReport } from './report-file.ts';
import { profileAndTarget, runCheck } from './profile.ts';
import { wrongLines } from './profile-check.ts';
import { runPlaywright } from './playwright.ts';
import { selectionGrep, type Selection } from './selection.ts';

export interface RunOptions extends Selection {
  target?: string;
  profile?: string;
  shard?: string;
  waivers?: string;
  baseline?: string;
  output: string;
  workers?: number;
  strict?: boolean;
  allowIncomplete?: boolean;
  /** false with --no-profile-check. */
  profileCheck?: boolean;
  /** An Ed25519 private key PEM: sign manifest.json. */
  signKey?: string;
  seed?: number;
  repeatEach?: number;
  /** Generated requests per operation and phase of the generative tests. */
  budget?: number;
}

/**
 * The target's settings: validates the profile (once for the run), checks the target answers and, unless
 * --no-profile-check, that its provisioning is right (a wrong entry is a provisioning error, exit 2).
 */
async function targetSettings(o: RunOptions): Promise<Partial<RunEnv>> {
  if (o.target && !o.profile) throw new UsageError('--target needs --profile: the suite needs the keys and fixtures of the target (see docs/vendors.md)');
  // The embedded mock: a mutant named in the CLI's own environment (the self-test) carries over.
  if (!o.profile) return { mockSeed: o.seed, mockMutant: readRunEnv().mockMutant, mockVariant: readRunEnv().mockVariant };
  const { profile, baseUrl } = await profileAndTarget(o.profile, o.target);
  if (o.profileCheck !== false) {
    const wrong = wrongLines(await runCheck(profile, baseUrl));
    if (wrong.length) {
      const list = wrong.map((l) => `${l.path}: ${l.detail}`).join('; ');
      throw new UsageError(`provisioning error (mms-conformance profile check; --no-profile-check to skip): ${list}`);
    }
  }
  return { targetProfile: resolve(o.profile), targetUrl: baseUrl };
}

/** Checks every option before anything runs; returns Playwright's arguments and the run's settings. Throws UsageError. */
async function preflight(o: RunOptions): Promise<{ args: string[]; run: Partial<RunEnv> }> {
  const args = ['test', '-c', resolve(ROOT, 'suites/playwright.config.ts')];
  const grep = selectionGrep(o);
  let blob: string | undefined;
  if (o.shard) {
    const m = /^(\d+)\/(\d+)$/.exec(o.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new UsageError(`--shard ${o.shard} must be i/n with 1 ≤ i ≤ n`);
    args.push('--shard', o.shard);
    blob = `shard-${m[1]}-of-${m[2]}`;
  }
  if (o.repeatEach) args.push('--repeat-each', String(o.repeatEach));
  const waivers = o.waivers ? checkedWaivers(o.waivers) : undefined;
  if (o.baseline) readReport(o.baseline);
  const reportsDir = checkedOutput(o.output);
  const target = await targetSettings(o);
  return { args, run: { ...target, reportsDir, waivers, grep, blob, progress: true, workers: o.workers ?? readRunEnv().workers, genBudget: o.budget ?? readRunEnv().genBudget, testTimeout: readRunEnv().testTimeout } };
}

/** Runs the suite; resolves to the exit code (cli/exit-codes.ts). Throws UsageError, Interrupted. */
export async function runConformance(o: RunOptions): Promise<number> {
  const signingKey = o.signKey ? loadSigningKey(o.signKey) : undefined;
  const { args, run } = await preflight(o);
  for (const file of [MANIFEST_FILE, SIGNATURE_FILE]) rmSync(resolve(run.reportsDir!, file), { force: true });
  for (const file of Object.values(REPORT_FILES)) rmSync(resolve(run.reportsDir!, file), { force: true });
  await runPlaywright(args, run);
  const report = readReport(resolve(run.reportsDir!, REPORT_FILES.json));
  writeManifest(run.reportsDir!, report, o.profile && resolve(o.profile), signingKey);
  let code = verdictExitCode(report.verdict, o.allowIncomplete);
  if (o.strict && report.run.tests.failed > 0) code = EXIT.failed;
  if (o.baseline) {
    const diff = diffReports(readReport(o.baseline), report);
    process.stdout.write(`\nAgainst the baseline ${o.baseline}:\n${formatDiff(diff)}\n`);
    if (diff.regressions.length > 0) code = EXIT.failed;
  }
  return code;
}
