/**
 * `mms-conformance run` (docs/vendors.md, "The command line"): one conformance run against a target (or the
 * embedded mock), through Playwright with the suite's config; writes every report format, applies
 * waivers, writes the certification manifest (cli/manifest.ts), compares with a baseline, and maps the verdict to an exit code (cli/exit-codes.ts).
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';
import { readRunEnv, type RunEnv } from '../contract/run-env.ts';
import { markTime, processStart } from '../contract/timings.ts';
import { REPORT_FILES } from '../contract/report/files.ts';
import { MANIFEST_FILE, SIGNATURE_FILE } from './bundle-files.ts';
import { EXIT, UsageError, verdictExitCode } from './exit-codes.ts';
import { checkedOutput, checkedWaivers } from './inputs.ts';
import { RunFolders, startEmbeddedTarget } from './embedded-target.ts';
import { listPlaywright, runPlaywright } from './playwright.ts';
import { selectionGrep, type Selection } from './selection.ts';

// What only some runs need (a profile, a baseline, a signing key) and what is needed only once the run
// has ended (the report's schema, the manifest) loads on demand: Playwright's runner starts sooner.
const afterRun = () => Promise.all([import('./report-file.ts'), import('./manifest.ts')]);

export interface RunOptions extends Selection {
  target?: string;
  profile?: string;
  shard?: string;
  waivers?: string;
  baseline?: string;
  output: string;
  /** Tests at once (`--concurrency`; contract/concurrency.ts). */
  concurrency?: number;
  /** `--workers`: the former name of `--concurrency`. */
  workers?: number;
  strict?: boolean;
  allowIncomplete?: boolean;
  /** false with --no-profile-check. */
  profileCheck?: boolean;
  /** An Ed25519 private key PEM: sign manifest.json. */
  signKey?: string;
  /** The run's seed (contract/run-seed.ts); with the embedded mock also its data seed. */
  seed?: number;
  /** Fresh seeds each property tries beside the run's seed. */
  exploreSeeds?: number;
  repeatEach?: number;
  /** Generated requests per operation and phase of the generative tests. */
  budget?: number;
  /** Stop after this many failed tests (`-x`: 1). */
  maxFailures?: number;
  x?: boolean;
  /** Run only the tests that failed in the previous run into the same output folder. */
  lastFailed?: boolean;
  /** List the selected tests instead of running them. */
  list?: boolean;
  /** Timeout of each test, in ms. */
  timeout?: number;
  retries?: number;
  /** One of Playwright's own reporters, run beside the kit's. */
  reporter?: string;
}

/**
 * The target's settings: validates the profile (once for the run), checks the target answers and, unless
 * --no-profile-check, that its provisioning is right (a wrong entry is a provisioning error, exit 2).
 */
async function targetSettings(o: RunOptions): Promise<{ run: Partial<RunEnv>; env: NodeJS.ProcessEnv }> {
  if (o.target && !o.profile) throw new UsageError('--target needs --profile: the suite needs the keys and fixtures of the target (see docs/vendors.md)');
  // The embedded mock (cli/embedded-target.ts): started by runConformance once every option is checked.
  if (!o.profile) return { run: {}, env: {} };
  const [{ profileAndTarget, runCheck }, { wrongLines }] = await Promise.all([import('./profile.ts'), import('./profile-check.ts')]);
  const { profile, baseUrl } = await profileAndTarget(o.profile, o.target);
  if (o.profileCheck !== false) {
    const wrong = wrongLines(await runCheck(profile, baseUrl));
    if (wrong.length) {
      const list = wrong.map((l) => `${l.path}: ${l.detail}`).join('; ');
      throw new UsageError(`provisioning error (mms-conformance profile check; --no-profile-check to skip): ${list}`);
    }
  }
  // The profile's CA bundle: Node reads NODE_EXTRA_CA_CERTS when a process starts, so the runner and its workers get it from the start.
  return { run: { targetProfile: resolve(o.profile), targetUrl: baseUrl }, env: profile.tls?.ca ? { NODE_EXTRA_CA_CERTS: profile.tls.ca } : {} };
}

/** Where Playwright records the failed tests of a run into `reportsDir` (its default place: the config's outputDir). */
export function lastRunFile(reportsDir: string): string {
  return resolve(reportsDir, 'test-results', '.last-run.json');
}

/** The ids of the tests that failed (or did not run) in the previous run into `reportsDir`. Throws UsageError when there was none. */
function lastFailedIds(reportsDir: string): string[] {
  try {
    return (JSON.parse(readFileSync(lastRunFile(reportsDir), 'utf8')) as { failedTests?: string[] }).failedTests ?? [];
  } catch {
    throw new UsageError(`--last-failed: no previous run into ${reportsDir} to take the failed tests from`);
  }
}

/** --last-failed after a run without failures: nothing runs, the previous reports stay. */
class NothingToRerun extends Error {
  constructor(output: string) {
    super(`--last-failed: the previous run into ${output} had no failed test; nothing to rerun`);
  }
}

/** Removes the empty folders under `dir` (bottom-up), and `dir` itself when it ends empty. */
export function removeEmptyFolders(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) removeEmptyFolders(join(dir, entry.name));
  if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
}

/** Checks every option before anything runs; returns Playwright's arguments and the run's settings. Throws UsageError. */
async function preflight(o: RunOptions): Promise<{ args: string[]; run: Partial<RunEnv>; env: NodeJS.ProcessEnv }> {
  const args = ['test', '-c', resolve(ROOT, 'suites/playwright.config.ts')];
  const grep = await selectionGrep(o);
  let blob: string | undefined;
  if (o.shard) {
    const m = /^(\d+)\/(\d+)$/.exec(o.shard);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new UsageError(`--shard ${o.shard} must be i/n with 1 ≤ i ≤ n`);
    args.push('--shard', o.shard);
    blob = `shard-${m[1]}-of-${m[2]}`;
  }
  if (o.repeatEach) args.push('--repeat-each', String(o.repeatEach));
  if (o.x && o.maxFailures !== undefined && o.maxFailures !== 1) throw new UsageError(`-x means --max-failures 1; not both -x and --max-failures ${o.maxFailures}`);
  const maxFailures = o.x ? 1 : o.maxFailures;
  if (maxFailures) args.push('--max-failures', String(maxFailures));
  if (o.timeout) args.push('--timeout', String(o.timeout));
  if (o.retries !== undefined) args.push('--retries', String(o.retries));
  const waivers = o.waivers ? await checkedWaivers(o.waivers) : undefined;
  if (o.baseline) (await import('./report-file.ts')).readReport(o.baseline);
  const reportsDir = checkedOutput(o.output, [...Object.values(REPORT_FILES), MANIFEST_FILE, SIGNATURE_FILE]);
  args.push('--last-failed-file', lastRunFile(reportsDir));
  if (o.lastFailed) {
    if (lastFailedIds(reportsDir).length === 0) throw new NothingToRerun(o.output);
    args.push('--last-failed');
  }
  const { run: target, env } = await targetSettings(o);
  // A shard's summary is a part: only the merge (`report merge`) writes the job's step summary.
  if (o.shard) env.GITHUB_STEP_SUMMARY = undefined;
  // The CLI's own environment carries what a printed rerun line sets (FC_SEED, FC_PATH …) and what the
  // bench and the self-test set; the options win (contract/run-env.ts names them all).
  const own = readRunEnv();
  const carried = { workers: own.workers, genBudget: own.genBudget, testTimeout: own.testTimeout, timingsFile: own.timingsFile, seed: own.seed, exploreSeeds: own.exploreSeeds, runs: own.runs, path: own.path, replayPath: own.replayPath, genDigestDir: own.genDigestDir, scopeMatrix: own.scopeMatrix };
  // The run's seed: a rerun line's FC_SEED (a seed an explored run found) over `--seed`, which also seeds the embedded mock's data.
  if (o.concurrency !== undefined && o.workers !== undefined && o.concurrency !== o.workers) throw new UsageError(`--workers is --concurrency's former name: give one of --concurrency ${o.concurrency} and --workers ${o.workers}`);
  const chosen = { workers: o.concurrency ?? o.workers, genBudget: o.budget, seed: own.seed ?? o.seed, exploreSeeds: o.exploreSeeds };
  const options = Object.fromEntries(Object.entries(chosen).filter(([, v]) => v !== undefined));
  return { env, args, run: { ...target, ...carried, ...options, reportsDir, waivers, grep, blob, progress: true, reporter: o.reporter } };
}

/** Runs the suite; resolves to the exit code (cli/exit-codes.ts). Throws UsageError, Interrupted. */
export async function runConformance(o: RunOptions): Promise<number> {
  if (o.list) return listConformance(o);
  markTime('cli.start', processStart());
  const signingKey = o.signKey ? (await import('./manifest.ts')).loadSigningKey(o.signKey) : undefined;
  let prepared: Awaited<ReturnType<typeof preflight>>;
  try {
    prepared = await preflight(o);
  } catch (e) {
    if (!(e instanceof NothingToRerun)) throw e;
    process.stdout.write(`${e.message}\n`);
    return EXIT.ok;
  }
  const { args, env } = prepared;
  let run = prepared.run;
  for (const file of [MANIFEST_FILE, SIGNATURE_FILE]) rmSync(resolve(run.reportsDir!, file), { force: true });
  for (const file of Object.values(REPORT_FILES)) rmSync(resolve(run.reportsDir!, file), { force: true });
  const folders = new RunFolders();
  let embedded: Awaited<ReturnType<typeof startEmbeddedTarget>> | undefined;
  let after: ReturnType<typeof afterRun> | undefined;
  try {
    run = { ...run, runDir: folders.make('mms-run-') };
    if (!o.profile) {
      // A mutant or variants named in the CLI's own environment (the self-test) carry over.
      const { mockMutant, mockVariant } = readRunEnv();
      markTime('cli.targetStart');
      embedded = await startEmbeddedTarget({ seed: o.seed, mutant: mockMutant, variant: mockVariant }, folders);
      markTime('cli.targetReady');
      run = { ...run, ...embedded.run, mockSeed: o.seed, mockMutant, mockVariant };
    }
    // While Playwright's runner loads (one core), the modules needed at the end load on the other.
    await runPlaywright(args, run, undefined, env, () => {
      markTime('cli.spawn');
      after = afterRun();
      after.catch(() => undefined);
    });
  } finally {
    await embedded?.stop();
    folders.remove();
    removeEmptyFolders(resolve(run.reportsDir!, 'test-results'));
  }
  markTime('cli.runnerExit');
  const [{ readReport }, { writeManifest }] = await (after ?? afterRun());
  const report = readReport(resolve(run.reportsDir!, REPORT_FILES.json));
  writeManifest(run.reportsDir!, report, o.profile && resolve(o.profile), signingKey);
  let code = verdictExitCode(report.verdict, o.allowIncomplete);
  if (o.strict && report.run.tests.failed > 0) code = EXIT.failed;
  if (o.baseline) {
    const { diffReports, formatDiff } = await import('../contract/report/diff.ts');
    const diff = diffReports(readReport(o.baseline), report);
    process.stdout.write(`\nAgainst the baseline ${o.baseline}:\n${formatDiff(diff)}\n`);
    if (diff.regressions.length > 0) code = EXIT.failed;
  }
  markTime('cli.end');
  return code;
}

/**
 * `run --list`: the tests the selection (and --shard) would run, one line each (project, file:line,
 * title, requirement tags), then the count; nothing is sent to any target. Resolves to 0; throws
 * UsageError when nothing is selected.
 */
async function listConformance(o: RunOptions): Promise<number> {
  const args = ['test', '-c', resolve(ROOT, 'suites/playwright.config.ts'), '--list', '--reporter', 'json'];
  if (o.shard) {
    if (!/^(\d+)\/(\d+)$/.test(o.shard)) throw new UsageError(`--shard ${o.shard} must be i/n with 1 ≤ i ≤ n`);
    args.push('--shard', o.shard);
  }
  if (o.lastFailed) args.push('--last-failed', '--last-failed-file', lastRunFile(resolve(o.output)));
  const tests = (await listPlaywright(args, { grep: await selectionGrep(o), reportsDir: resolve(o.output) })).filter((t) => t.project !== 'setup');
  if (tests.length === 0) throw new UsageError('no test matches the selection (--family, --level, --grep)');
  for (const t of tests) process.stdout.write(`${t.project} › ${t.file}:${t.line} › ${t.title}  ${t.tags.join(' ')}\n`);
  const files = new Set(tests.map((t) => t.file)).size;
  process.stdout.write(`${tests.length} test${tests.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}\n`);
  return EXIT.ok;
}
