/**
 * `mms-conformance run`: one conformance run against a target (or the embedded mock), through
 * Playwright with the suite's config; writes every report format, applies waivers, compares with a
 * baseline, and maps the verdict to an exit code.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';
import { loadProfile, ProfileError } from '../contract/profile.ts';
import { loadWaivers } from '../suites/reporter/waivers.ts';
import { diffReports, formatDiff } from '../suites/reporter/diff.ts';
import type { ConformanceReport } from '../suites/reporter/model.ts';
import { assertReachable } from '../suites/setup/global-setup.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { selectionGrep, type Selection } from './selection.ts';
import { readReport } from './report-file.ts';

export interface RunOptions extends Selection {
  target?: string;
  profile?: string;
  shard?: string;
  waivers?: string;
  baseline?: string;
  output: string;
  workers?: number;
  strict?: boolean;
  failOnIncomplete?: boolean;
  seed?: number;
  repeatEach?: number;
}

/** Checks the options before anything runs; throws UsageError with one line. */
async function preflight(o: RunOptions): Promise<{ env: NodeJS.ProcessEnv; args: string[] }> {
  const env: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: o.output, MMS_PROGRESS: '1', FORCE_COLOR: process.env.FORCE_COLOR ?? '0' };
  delete env.TARGET_URL;
  delete env.TARGET_PROFILE;
  const args = ['test', '-c', 'suites/playwright.config.ts'];
  if (o.target && !o.profile) throw new UsageError('--target needs --profile: the suite needs the keys and fixtures of the target (see README, "Certifying your implementation")');
  if (o.profile) {
    let baseUrl: string;
    try {
      const profile = loadProfile(resolve(o.profile));
      baseUrl = o.target?.replace(/\/$/, '') ?? profile.baseUrl;
    } catch (e) {
      throw new UsageError(e instanceof ProfileError ? e.message : (e as Error).message);
    }
    if (o.target && !/^https?:\/\/.+\/v1$/.test(baseUrl)) throw new UsageError(`--target ${o.target} must be an http(s) URL ending in /v1`);
    try {
      await assertReachable(baseUrl);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    env.TARGET_PROFILE = resolve(o.profile);
    env.TARGET_URL = baseUrl;
  } else if (o.seed !== undefined) env.MOCK_SEED = String(o.seed);
  if (o.waivers) {
    try {
      loadWaivers(resolve(o.waivers));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    env.MMS_WAIVERS = resolve(o.waivers);
  }
  if (o.baseline) readReport(o.baseline);
  const grep = selectionGrep(o);
  if (grep) {
    args.push('--grep', grep);
    env.MMS_GREP = grep;
  }
  if (o.shard) {
    const m = /^(\d+)\/(\d+)$/.exec(o.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new UsageError(`--shard ${o.shard} must be i/n with 1 ≤ i ≤ n`);
    args.push('--shard', o.shard);
    env.MMS_BLOB = `shard-${m[1]}-of-${m[2]}`;
  }
  if (o.workers) args.push('--workers', String(o.workers));
  if (o.repeatEach) args.push('--repeat-each', String(o.repeatEach));
  return { env, args };
}

/** Runs the suite; resolves to the process exit code. Throws UsageError for bad options. */
export async function runConformance(o: RunOptions): Promise<number> {
  const { env, args } = await preflight(o);
  const reportFile = resolve(o.output, 'conformance.json');
  rmSync(reportFile, { force: true });
  const code = await new Promise<number>((done) => {
    const child = spawn(resolve(ROOT, 'node_modules/.bin/playwright'), args, { cwd: ROOT, env, stdio: 'inherit' });
    child.on('exit', (c, signal) => done(signal ? 130 : c ?? 1));
  });
  if (!existsSync(reportFile)) throw new UsageError(`the run wrote no report (Playwright exited with ${code}); see its output above`);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport;
  if (o.baseline) {
    const diff = diffReports(readReport(o.baseline), report);
    process.stdout.write(`\nAgainst the baseline ${o.baseline}:\n${formatDiff(diff)}\n`);
    return diff.regressions.length > 0 ? EXIT.failed : EXIT.ok;
  }
  if (o.strict && report.run.tests.failed > 0) return EXIT.failed;
  if (report.verdict === 'not conformant') return EXIT.failed;
  if (report.verdict === 'incomplete' && o.failOnIncomplete) return EXIT.failed;
  return EXIT.ok;
}
