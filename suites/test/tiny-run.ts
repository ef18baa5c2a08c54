/**
 * A tiny Playwright run for the unit tests that need the runner itself (suites/test/kept-worker/,
 * suites/test/worker-context/): `npx playwright test -c <config>` in a child process, in a fresh folder
 * (JSON report, JUnit file, test output), its tests read back from Playwright's JSON report by title.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';

export interface JsonResult { status: string; workerIndex: number; retry: number; errors: Array<{ message?: string }> }
export interface JsonTest { status: string; annotations: Array<{ type: string }>; results: JsonResult[] }
interface JsonSuite { specs?: Array<{ title: string; tests: JsonTest[] }>; suites?: JsonSuite[] }

export interface TinyRun {
  code: number;
  /** stdout and stderr, interleaved. */
  output: string;
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  /** Each spec's first test (one project), by title. */
  tests: Map<string, JsonTest>;
  /** The run's folder: `report.json`, `junit.xml` (if the config has the JUnit reporter), `out/`. */
  dir: string;
}

/**
 * Runs Playwright with `config` (a path from the repository's root) and extra CLI `args`, `env` added to
 * this process's environment. Throws if the run wrote no JSON report (the config must have `json`).
 */
export async function playTinyRun(config: string, options: { args?: string[]; env?: Record<string, string>; dir?: string } = {}): Promise<TinyRun> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'tiny-run-'));
  const env = { ...process.env, CI: '', FORCE_COLOR: '0', PLAYWRIGHT_JSON_OUTPUT_FILE: join(dir, 'report.json'), PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(dir, 'junit.xml'), ...options.env };
  const child = spawn(process.execPath, [resolve(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', resolve(ROOT, config), '--output', join(dir, 'out'), ...(options.args ?? [])], { cwd: ROOT, env });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise<number>((done) => child.on('exit', (c) => done(c ?? -1)));
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { stats: TinyRun['stats']; suites: JsonSuite[] };
  const tests = new Map<string, JsonTest>();
  const walk = (s: JsonSuite) => {
    for (const spec of s.specs ?? []) tests.set(spec.title, spec.tests[0]!);
    for (const c of s.suites ?? []) walk(c);
  };
  report.suites.forEach(walk);
  return { code, output, stats: report.stats, tests, dir };
}
