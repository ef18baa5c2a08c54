/**
 * Bench part `failing`: how much slower the suite judges a broken target than a conformant one. Runs
 * the whole conformance suite (`mms-conformance run`, embedded mock) once green and once with a mutant
 * (MOCK_MUTANT) that makes many tests fail, in one bench run, and reports wall time mutant ÷ green
 * (target ≤ 1.5×: failures must not recycle workers into slow start-ups, docs/design.md §5). Wall times are
 * in milliseconds; a run whose report is missing is a problem, not a figure.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';

/**
 * Failed tests the failing run must have to measure anything: a deviation the universal checks find fails its
 * requirement without failing the test that saw it (one root cause), so the mutant is one whose deviation
 * breaks the tests' own assertions (`create-200-everywhere`: 42 of 843 tests on 2026-11-28).
 */
const MIN_FAILED = 30;

export interface FailingRun { mutant: string | null; wallMs: number; testsFailed: number; testsTotal: number; mustFailed: number; exitCode: number | null }
export interface FailingReport { green: FailingRun; mutant: FailingRun; ratio: number; problems: string[] }

/** What the bench reads of a run's conformance.json (spec/report.schema.json). */
type RunReport = { run: { tests: { total: number; failed: number } }; summary: { must: { failed: number } } };

/** One full run (its output folder removed after); resolves with its wall time and the report's counts. */
async function runOnce(mutant: string | null, log: (line: string) => void): Promise<FailingRun> {
  const output = mkdtempSync(join(tmpdir(), 'mms-bench-failing-'));
  const env = { ...process.env, ...(mutant ? { MOCK_MUTANT: mutant } : {}) };
  if (!mutant) delete env.MOCK_MUTANT;
  const started = performance.now();
  const exitCode = await new Promise<number | null>((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'cli/main.ts'), 'run', '--output', output], { cwd: ROOT, env, stdio: 'ignore' });
    child.on('exit', (code) => done(code));
  });
  const wallMs = performance.now() - started;
  let report: RunReport;
  try {
    report = JSON.parse(readFileSync(join(output, 'conformance.json'), 'utf8')) as RunReport;
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
  const run = { mutant, wallMs, testsFailed: report.run.tests.failed, testsTotal: report.run.tests.total, mustFailed: report.summary.must.failed, exitCode };
  log(`${mutant ?? 'green'}: ${(wallMs / 1000).toFixed(1)} s, ${run.testsFailed}/${run.testsTotal} tests failed, ${run.mustFailed} must requirements failed`);
  return run;
}

/** Runs green, then the mutant, and compares their wall times. */
export async function failingRun(mutant: string, log: (line: string) => void): Promise<FailingReport> {
  const problems: string[] = [];
  const green = await runOnce(null, log);
  const broken = await runOnce(mutant, log);
  if (green.testsFailed > 0) problems.push(`the green run failed ${green.testsFailed} tests`);
  if (broken.testsFailed < MIN_FAILED) problems.push(`mutant ${mutant} failed only ${broken.testsFailed} tests (wanted ≥ ${MIN_FAILED})`);
  return { green, mutant: broken, ratio: broken.wallMs / green.wallMs, problems };
}
