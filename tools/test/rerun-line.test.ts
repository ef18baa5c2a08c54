/**
 * Reproduction lines that reproduce (docs/generative.md, "Reproducing a failure"): a generative failure
 * against a target (the mock started apart with the mutant `create-meter-200`, reached through a profile)
 * prints a rerun line carrying that run's --profile and --target; the line, pasted into a shell as the
 * report prints it, reruns against the same target and fails the same test with the same counterexample.
 * The one stand-in: `npx` is a shell function running this repository's CLI (in a clone the kit is not
 * its own dependency; installed, `npx mms-conformance` is the kit).
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import type { ConformanceReport } from '../../contract/report/model.ts';
import { cliRun, startCli, type CliRun } from './run-cli.ts';

test.setTimeout(600_000);
const TOKEN = 'rerun-line-test-control-token';
const TITLE = 'createMeter: generated valid requests get a documented status, never 5xx';
let mock: CliRun;
let profileFile: string;
const dir = mkdtempSync(join(tmpdir(), 'rerun-line-'));

test.beforeAll(async () => {
  mock = startCli(['mock', '--port', '0', '--mutant', 'create-meter-200', '--control-token', TOKEN]);
  const base = await new Promise<string>((done, fail) => {
    const timer = setInterval(() => {
      const m = /API base\s+(http:\/\/\S+)\/v1/.exec(mock.output());
      if (m) done(m[1]!);
    }, 100);
    void mock.exit.then(({ code }) => fail(new Error(`the mock exited with ${code}: ${mock.output()}`))).finally(() => clearInterval(timer));
  });
  const profile = await (await fetch(`${base}/__mock/profile`, { headers: { 'x-mock-control-token': TOKEN } })).json();
  profileFile = join(dir, 'target.json');
  writeFileSync(profileFile, JSON.stringify(profile));
});
test.afterAll(async () => {
  mock?.child.kill('SIGINT');
  await mock?.exit;
});

/** The failure message of TITLE in a report, and its rerun line. */
function failureOf(reportFile: string): { message: string; rerun: string } {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport;
  const message = report.requirements.flatMap((r) => r.failures).find((f) => f.test.includes(TITLE) && f.message.includes('Rerun: '))?.message;
  expect(message, 'the failure carries a rerun line').toBeDefined();
  return { message: message!, rerun: /^Rerun: (.*)$/m.exec(message!)![1]! };
}

test('the printed rerun line, pasted into a shell, reruns against the same target and fails the same way', async () => {
  const first = await cliRun(['run', '--profile', profileFile, '--grep', TITLE, '--workers', '1', '--output', join(dir, 'first'), '--no-profile-check']);
  expect(first.code, first.output).toBe(1);
  const { message, rerun } = failureOf(join(dir, 'first', 'conformance.json'));
  expect(rerun).toContain(`--profile ${profileFile}`);
  expect(rerun).toMatch(/--target http:\/\/127\.0\.0\.1:\d+\/v1/);
  const counterexample = /^Counterexample: (.*)$/m.exec(message)?.[1];
  expect(counterexample).toBeTruthy();

  const shellDir = mkdtempSync(join(dir, 'shell-'));
  const pasted = spawnSync('bash', ['--noprofile', '--norc', '-c', `npx() { [ "$1" = mms-conformance ] && shift; node '${resolve(ROOT, 'bin/mms-conformance.mjs')}' "$@"; }\n${rerun}`], { cwd: shellDir, env: { ...process.env, CI: '1' }, encoding: 'utf8', timeout: 300_000 });
  expect(pasted.status, pasted.stdout + pasted.stderr).toBe(1);
  const again = failureOf(join(shellDir, 'reports', 'conformance.json'));
  // The same counterexample; only the run-unique record names the kits write ("CT meter …") differ.
  const unique = (text: string | undefined) => text?.replace(/"CT [^"]*"/g, '"CT <run-unique>"');
  expect(unique(/^Counterexample: (.*)$/m.exec(again.message)?.[1])).toBe(unique(counterexample));
  expect(unique(again.message.split('\n')[0])).toBe(unique(message.split('\n')[0]));
  expect(again.rerun).toBe(rerun);
});
