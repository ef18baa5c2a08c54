/**
 * The one way the CLI starts Playwright (`playwright test` for `run`, `playwright merge-reports` for
 * `report merge`), with the run's environment (contract/run-env.ts), and how it ends (docs/ci.md, "Exit codes"):
 * - Playwright's runner gets its own process group, so a Ctrl-C reaches it once, through the CLI;
 * - SIGINT or SIGTERM to the CLI interrupts the runner (SIGINT to its group: its workers stop with it),
 *   waits up to 10 s, then kills the group; the CLI then throws
 *   Interrupted (exit 130/143). The reporter writes no verdict for an interrupted run;
 * - whatever ends the CLI, even SIGKILL, the runner and its workers end with it (cli/orphan-guard.mjs,
 *   loaded into each through NODE_OPTIONS, watches its parent);
 * - the reporter's outcome (how the run ended, whether reports were written) is returned, or a
 *   UsageError of one line when the run gave no verdict.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { runEnvFor, type RunEnv, type RunOutcome } from '../contract/run-env.ts';
import { nodeOptionsWithTsx, playwrightCommand } from './bins.ts';
import { Interrupted, UsageError } from './exit-codes.ts';

/** NODE_OPTIONS of the runner and its workers: tsx where needed (cli/bins.ts) and the orphan guard. */
function runnerNodeOptions(): string {
  return `${nodeOptionsWithTsx(process.env.NODE_OPTIONS)} --import=${new URL('./orphan-guard.mjs', import.meta.url).href}`.trim();
}

/** How long an interrupted runner may take to stop before its process group is killed, in ms. */
export const STOP_GRACE_MS = 10_000;

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* the group is gone already */
  }
}

/**
 * Runs `playwright <args>` in the caller's working directory (reports land there; give config files as
 * absolute paths) with the run's settings; resolves to the reporter's outcome
 * once a verdict was written; `extraEnv` adds variables (NODE_EXTRA_CA_CERTS); `spawned` is called once the
 * runner's process is started; standard output lines matching `quiet` are not printed. `noTests` is the error when the run holds no selected test. Throws Interrupted when the CLI was signalled, UsageError (one line) when
 * the run gave no verdict: setup failed, no test executed, reports not written.
 */
export async function runPlaywright(args: string[], run: Partial<RunEnv>, noTests = 'no test matches the selection (--family, --level, --grep)', extraEnv: NodeJS.ProcessEnv = {}, spawned?: () => void, quiet?: RegExp): Promise<RunOutcome> {
  const scratch = mkdtempSync(join(tmpdir(), 'mms-cli-'));
  const outcomeFile = join(scratch, 'outcome.json');
  const env = { ...runEnvFor({ ...run, outcomeFile }), ...extraEnv, FORCE_COLOR: process.env.FORCE_COLOR ?? '0', NODE_OPTIONS: runnerNodeOptions(), MMS_CLI_PID: String(process.pid) };
  const [command, lead] = playwrightCommand();
  const child = spawn(command, [...lead, ...args], { cwd: process.cwd(), env, stdio: ['inherit', quiet ? 'pipe' : 'inherit', 'inherit'], detached: true });
  if (quiet) createInterface({ input: child.stdout!, crlfDelay: Infinity }).on('line', (line) => quiet.test(line) || process.stdout.write(`${line}\n`));
  spawned?.();
  let received: 'SIGINT' | 'SIGTERM' | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    if (received) return signalGroup(child.pid!, 'SIGKILL');
    received = signal;
    signalGroup(child.pid!, 'SIGINT');
    killTimer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), STOP_GRACE_MS);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const code = await new Promise<number>((done, fail) => {
      child.on('error', fail);
      child.on('exit', (c, s) => done(c ?? (s ? 128 : 1)));
    });
    // The runner is gone; its workers leave with it, but make sure nothing of the group lives on.
    signalGroup(child.pid!, 'SIGKILL');
    if (received) throw new Interrupted(received);
    if (!existsSync(outcomeFile)) throw new UsageError(`the run ended without a verdict (Playwright exited with ${code}); see its output above`);
    const outcome = JSON.parse(readFileSync(outcomeFile, 'utf8')) as RunOutcome;
    if (outcome.reported) return outcome;
    if (outcome.status === 'interrupted') throw new UsageError('the run was interrupted before it finished; no verdict');
    // Playwright's own "No tests found" when the selection holds nothing (no project keeps a test then).
    if (outcome.selected === 0 && outcome.errors.every((e) => /No tests found/.test(e))) throw new UsageError(noTests);
    if (outcome.errors.length) throw new UsageError(outcome.errors.at(-1)!);
    if (outcome.selected === 0) throw new UsageError(noTests);
    throw new UsageError(`the run executed no test: the ${outcome.selected} selected tests were all skipped; see the skip reasons above`);
  } finally {
    clearTimeout(killTimer);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** One test as `playwright test --list` gives it. */
export interface ListedTest { project: string; file: string; line: number; title: string; tags: string[] }

interface JsonSuite { title: string; file: string; specs?: Array<{ title: string; tags: string[]; file: string; line: number; tests: Array<{ projectName: string }> }>; suites?: JsonSuite[] }

/**
 * Runs `playwright <args>` (which must hold `--list --reporter json`) with the run's settings and returns
 * the tests it lists, one per project. No global setup runs, no request is sent. Throws UsageError
 * (one line) when Playwright fails.
 */
export async function listPlaywright(args: string[], run: Partial<RunEnv>): Promise<ListedTest[]> {
  const env = { ...runEnvFor(run), FORCE_COLOR: '0', NODE_OPTIONS: runnerNodeOptions(), MMS_CLI_PID: String(process.pid) };
  const [command, lead] = playwrightCommand();
  const child = spawn(command, [...lead, ...args], { cwd: process.cwd(), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise<number>((done, fail) => {
    child.on('error', fail);
    child.on('exit', (c) => done(c ?? 1));
  });
  let report: { suites: JsonSuite[]; errors?: Array<{ message?: string }> };
  try {
    report = JSON.parse(stdout);
  } catch {
    throw new UsageError(`listing the tests failed (Playwright exited with ${code}): ${(stderr.trim().split('\n')[0] || 'no output')}`);
  }
  if (report.errors?.length) throw new UsageError(`listing the tests failed: ${report.errors[0]!.message?.split('\n')[0]}`);
  const out: ListedTest[] = [];
  const walk = (suite: JsonSuite, path: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) out.push({ project: t.projectName, file: spec.file, line: spec.line, title: [...path, spec.title].join(' › '), tags: spec.tags.map((tag) => (tag.startsWith('@') ? tag : `@${tag}`)) });
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const file of report.suites) walk(file, []);
  return out;
}
