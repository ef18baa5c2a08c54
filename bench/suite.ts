/**
 * Bench parts `suite` and `remote`: the conformance suite itself, timed and counted.
 *
 * - `suite`: `npm run conformance` against the embedded mock, spawned as a user's shell runs it and timed
 *   from that spawn to its exit (the shell-to-verdict time: npm, tsx, the CLI, the runner, the workers,
 *   the reports), with its CPU time (user + system of every process of the run, which a busy host does
 *   not inflate as it does the wall time), and Playwright's JSON reporter beside the kit's, so the run's wall time splits into its parts (start-up
 *   to the first test, the parallel project, the serial project, reports) and the
 *   requests of each test (its evidence attachment, contract/exchange.ts) add up per spec file; the
 *   requests per family are the report's own `run.requestsByFamily` (both tallied by
 *   suites/reporter/request-tally.ts).
 * - `remote`: the same suite against a mock in a process of its own, reached through its profile as a
 *   remote target is (`run --profile`), with the control API's latency fault adding `latencyMs` to every
 *   request (mock/control/faults.ts), at the concurrency a remote target gets by default (its 8 live
 *   keys' budget: 16 tests at once, contract/concurrency.ts) unless `concurrency` is given; no test may
 *   fail because of the latency, and at +100 ms the run's wall time is held to REMOTE_WALL_TARGET_MS.
 *
 * Times are milliseconds of wall time; a run whose reports are missing throws.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';
import { parseTimings } from '../contract/timings.ts';
import { controlHeaders } from './control.ts';
import { startMockServer } from './servers.ts';
import { tallyRequests } from '../suites/reporter/request-tally.ts';
import type { ConformanceReport } from '../contract/report/model.ts';

/** The remote part's wall-time target at +100 ms a request: a full certification within a minute. */
export const REMOTE_WALL_TARGET_MS = 60_000;

/** Requests a one-live-key remote target allows per minute (Limits: 1,000 per sk_live_ key). */
export const LIVE_KEY_REQUESTS_PER_MINUTE = 1000;

/**
 * A run's wall time in consecutive parts: startupMs + workerStartMs + parallelMs + serialMs + reportsMs
 * = wallMs. `startup` and `reports` split their part further (from the run's time marks,
 * contract/timings.ts); `setupMs` is the setup project's test (part of the worker start: the parallel
 * project waits for it).
 */
export interface SuitePhases {
  /** The CLI's spawn to the test files loaded in the runner: the sum of `startup`. */
  startupMs: number;
  startup: {
    /** Spawn of the CLI to its spawn of Playwright's runner (Node, tsx, the CLI's modules, the options' checks), less the embedded mock's start. */
    cliMs: number;
    /** The embedded mock's start in the CLI (cli/embedded-target.ts); 0 against a profile's target. */
    embeddedMockMs: number;
    /** The runner's spawn to its global setup (Node, Playwright, the config, the reporters). */
    runnerMs: number;
    /** The global setup (the run's settings checked). */
    globalSetupMs: number;
    /** Loading every test file in the runner. */
    loadTestsMs: number;
  };
  /** Test files loaded to the parallel project's first test: the setup project's worker and test, then the parallel project's workers starting. */
  workerStartMs: number;
  /** The setup project's tests, if it has any (within workerStartMs); the target check itself is in the global setup. */
  setupMs: number;
  /** The worker start's parts: the setup project's worker (test files loaded → its test), its test, then the parallel project's workers (→ their first test). */
  workerStart: { setupWorkerMs: number; setupTestMs: number; parallelWorkersMs: number };
  /** First to last test of the parallel project (features, properties, generative). */
  parallelMs: number;
  /** The serial project (rate limits, clock), from the parallel project's end. */
  serialMs: number;
  /** The last test's end to the process's exit (reports): the sum of `reports`. */
  reportsMs: number;
  /** The end's parts, from the run's time marks. */
  reports: {
    /** Last test's end to the kit's reporter's onEnd: workers stopping, the global teardown. */
    teardownMs: number;
    /** The kit's reports (conformance.json/html/md, JUnit, HAR). */
    kitReportsMs: number;
    /** The kit's reports to the redaction: Playwright's own reporters (HTML, JSON). */
    otherReportersMs: number;
    /** The redaction of what Playwright wrote (suites/reporter/redact-artifacts.ts). */
    redactMs: number;
    /** The redaction's end to the runner's exit. */
    exitMs: number;
    /** The runner's exit to the CLI's: reading the report, the manifest. */
    cliMs: number;
  };
}

export interface SuiteReport {
  /** Spawn of `npm run conformance` to its exit. */
  wallMs: number;
  /** CPU time of the run's every process (npm, the CLI and the embedded mock, the runner, the workers), in ms: the shell's `times` for its children. */
  cpuMs: { user: number; system: number };
  exitCode: number | null;
  verdict: string;
  tests: { total: number; passed: number; failed: number; skipped: number };
  /** The report's `run.requests`. */
  requests: number;
  /** Minutes of rate budget the requests take on a target with one live key. */
  budgetMinutes: number;
  phases: SuitePhases;
  /** Requests by family (first requirement tag of each test), most first. */
  requestsByFamily: Array<{ family: string; tests: number; requests: number }>;
  /** Requests by spec file, most first. */
  requestsByFile: Array<{ file: string; tests: number; requests: number }>;
  /** Summed test durations by project (busy time of the workers). */
  busyMsByProject: Record<string, number>;
  /** Failed tests' titles (at most 20). */
  failedTests: string[];
  /** Tests the run ran at once: its Playwright workers (contract/concurrency.ts). */
  concurrency: number;
}

interface JsonResult { startTime: string; duration: number; status: string; attachments: Array<{ name: string; body?: string }> }
interface JsonSpec { title: string; file: string; tags: string[]; tests: Array<{ projectName: string; results: JsonResult[] }> }
interface JsonSuite { file?: string; specs?: JsonSpec[]; suites?: JsonSuite[] }

interface TestRow { project: string; file: string; title: string; requests: number; start: number; end: number; status: string }

/** The tests of Playwright's JSON report, with their requests (from the kit's evidence attachment) and times. */
function testRows(json: { suites: JsonSuite[] }): TestRow[] {
  const rows: TestRow[] = [];
  const visit = (suite: JsonSuite) => {
    for (const s of suite.suites ?? []) visit(s);
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        for (const r of t.results) {
          const evidence = r.attachments.find((a) => a.name === 'conformance-evidence');
          const requests = evidence?.body ? (JSON.parse(Buffer.from(evidence.body, 'base64').toString('utf8')) as { requests?: number }).requests ?? 0 : 0;
          const start = Date.parse(r.startTime);
          rows.push({ project: t.projectName, file: spec.file, title: spec.title, requests, start, end: start + r.duration, status: r.status });
        }
      }
    }
  };
  for (const s of json.suites) visit(s);
  return rows;
}

/**
 * The phases of a run from its tests' times and its time marks (`marks`: event → epoch ms, see
 * contract/timings.ts); `spawnedAt` and `exitedAt` are epoch milliseconds. A mark missing counts as the
 * mark before it.
 */
function phases(rows: TestRow[], marks: Record<string, number>, spawnedAt: number, exitedAt: number): SuitePhases {
  const span = (project: string | string[]) => {
    const of = rows.filter((r) => ([] as string[]).concat(project).includes(r.project));
    return of.length ? { start: Math.min(...of.map((r) => r.start)), end: Math.max(...of.map((r) => r.end)) } : undefined;
  };
  const setup = span('setup');
  // The parallel project, with the longest test's project queued first against a remote target (suites/playwright.config.ts).
  const parallel = span(['conformance', 'conformance-long']);
  const serial = span('serial');
  const first = Math.min(...rows.map((r) => r.start));
  const last = Math.max(...rows.map((r) => r.end));
  // Each mark, clamped into the span it belongs to, so the parts add up to the phase.
  const at = (event: string, from: number, to: number) => Math.min(Math.max(marks[event] ?? from, from), to);
  const firstParallel = parallel?.start ?? first;
  const cliSpawn = at('cli.spawn', spawnedAt, firstParallel);
  const targetStart = at('cli.targetStart', spawnedAt, cliSpawn);
  const targetReady = at('cli.targetReady', targetStart, cliSpawn);
  const setupStart = at('globalSetup.start', cliSpawn, firstParallel);
  const setupEnd = at('globalSetup.end', setupStart, firstParallel);
  const loaded = at('tests.loaded', setupEnd, firstParallel);
  const reportsStart = at('reports.start', last, exitedAt);
  const reportsEnd = at('reports.end', reportsStart, exitedAt);
  const runnerExit = at('cli.runnerExit', reportsEnd, exitedAt);
  const redactStart = at('redact.start', reportsEnd, runnerExit);
  const redactEnd = at('redact.end', redactStart, runnerExit);
  return {
    startupMs: loaded - spawnedAt,
    startup: { cliMs: cliSpawn - spawnedAt - (targetReady - targetStart), embeddedMockMs: targetReady - targetStart, runnerMs: setupStart - cliSpawn, globalSetupMs: setupEnd - setupStart, loadTestsMs: loaded - setupEnd },
    workerStartMs: firstParallel - loaded,
    setupMs: setup ? setup.end - setup.start : 0,
    workerStart: setup && setup.start >= loaded && setup.end <= firstParallel
      ? { setupWorkerMs: setup.start - loaded, setupTestMs: setup.end - setup.start, parallelWorkersMs: firstParallel - setup.end }
      : { setupWorkerMs: 0, setupTestMs: 0, parallelWorkersMs: firstParallel - loaded },
    parallelMs: parallel ? parallel.end - parallel.start : 0,
    serialMs: serial && parallel ? serial.end - parallel.end : 0,
    reportsMs: exitedAt - last,
    reports: { teardownMs: reportsStart - last, kitReportsMs: reportsEnd - reportsStart, otherReportersMs: redactStart - reportsEnd, redactMs: redactEnd - redactStart, exitMs: runnerExit - redactEnd, cliMs: exitedAt - runnerExit },
  };
}

/** The shell's `times` line for its children (`0m28.120000s 0m2.870000s`, user then system), in ms; zeros when absent. */
export function childTimes(text: string): { user: number; system: number } {
  const lines = text.trim().split('\n').filter((l) => /^\d+m[\d.]+s \d+m[\d.]+s$/.test(l.trim()));
  const ms = (t: string) => {
    const m = /^(\d+)m([\d.]+)s$/.exec(t)!;
    return Math.round((Number(m[1]) * 60 + Number(m[2])) * 1000);
  };
  const [user, system] = (lines.at(-1) ?? '0m0s 0m0s').trim().split(' ');
  return { user: ms(user!), system: ms(system!) };
}

/**
 * Runs `npm run conformance -- run …` with `args` (plus the JSON reporter into a fresh folder) from a
 * POSIX shell, as a user does, and reads what it wrote; the shell's `times` gives the CPU of every process
 * the run waited for.
 */
async function runSuite(args: string[], env: NodeJS.ProcessEnv, log: (line: string) => void, label: string): Promise<SuiteReport> {
  const output = mkdtempSync(join(tmpdir(), 'mms-bench-suite-'));
  const timings = join(output, 'timings.txt');
  const script = 'npm run --silent conformance -- "$@" >/dev/null; code=$?; times; exit $code';
  let shellOut = '';
  const spawnedAt = Date.now();
  const exitCode = await new Promise<number | null>((done) => {
    const child = spawn('/bin/sh', ['-c', script, 'sh', '--output', output, '--reporter', 'json', ...args], { cwd: ROOT, env: { ...env, MMS_TIMINGS: timings }, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout!.on('data', (d: Buffer) => (shellOut += d.toString()));
    child.on('exit', (code) => done(code));
  });
  const exitedAt = Date.now();
  const report = JSON.parse(readFileSync(join(output, 'conformance.json'), 'utf8')) as ConformanceReport;
  const json = JSON.parse(readFileSync(join(output, 'playwright-json.json'), 'utf8')) as { suites: JsonSuite[]; config: { workers: number } };
  const rows = testRows(json);
  const busy: Record<string, number> = {};
  for (const r of rows) busy[r.project] = (busy[r.project] ?? 0) + (r.end - r.start);
  const out: SuiteReport = {
    wallMs: exitedAt - spawnedAt,
    cpuMs: childTimes(shellOut),
    exitCode,
    verdict: report.verdict,
    tests: report.run.tests,
    requests: report.run.requests,
    budgetMinutes: report.run.requests / LIVE_KEY_REQUESTS_PER_MINUTE,
    phases: phases(rows, existsSync(timings) ? parseTimings(readFileSync(timings, 'utf8')) : {}, spawnedAt, exitedAt),
    requestsByFamily: report.run.requestsByFamily ?? [],
    requestsByFile: tallyRequests(rows, (r) => r.file, (r) => r.requests, 'file'),
    busyMsByProject: busy,
    failedTests: rows.filter((r) => r.status !== 'passed' && r.status !== 'skipped').slice(0, 20).map((r) => `${r.file} › ${r.title}`),
    concurrency: json.config.workers,
  };
  log(`${label}: ${(out.wallMs / 1000).toFixed(1)} s wall, ${((out.cpuMs.user + out.cpuMs.system) / 1000).toFixed(1)} s CPU, ${out.requests} requests, ${out.tests.failed}/${out.tests.total} tests failed, ${out.verdict}, ${out.concurrency} tests at once`);
  return out;
}

/** The suite against the embedded mock: `npm run conformance` from the shell. */
export function suiteRun(log: (line: string) => void): Promise<SuiteReport> {
  const env = { ...process.env };
  delete env.MOCK_MUTANT;
  return runSuite([], env, log, 'embedded mock');
}

/**
 * The suite against a mock of its own process with `latencyMs` added to every API request (the control
 * API's latency fault), reached through its profile like a remote target.
 */
export async function remoteRun(latencyMs: number, log: (line: string) => void, concurrency?: number): Promise<SuiteReport & { latencyMs: number }> {
  const mock = await startMockServer();
  try {
    const headers = controlHeaders();
    const profile = await (await fetch(`${mock.url}/__mock/profile`, { headers })).json();
    const set = await fetch(`${mock.url}/__mock/faults`, { method: 'PUT', headers, body: JSON.stringify({ latencyMs }) });
    if (set.status !== 200) throw new Error(`the control API refused the latency fault: ${set.status} ${await set.text()}`);
    const file = join(mkdtempSync(join(tmpdir(), 'mms-bench-remote-')), 'profile.json');
    writeFileSync(file, JSON.stringify(profile, null, 2), { mode: 0o600 });
    const env = { ...process.env };
    delete env.MOCK_MUTANT;
    const args = ['--profile', file, '--no-profile-check', ...(concurrency === undefined ? [] : ['--concurrency', String(concurrency)])];
    return { latencyMs, ...(await runSuite(args, env, log, `remote-like (+${latencyMs} ms per request)`)) };
  } finally {
    await mock.stop();
  }
}
