/**
 * Determinism (docs/vendors.md, "Seeds and determinism"; docs/ci.md): the same kit version, target state
 * and seed give the same verdicts. The suite runs twice against the embedded mock made to deviate (a
 * mutant a property finds: a custom-field id of 0 answered 404), on a narrow selection that holds
 * property tests (CF-005, METER-009, AUTH-002, AUTH-003: fast-check cases drawn from the seed), and
 * every requirement's verdict, every test's status and every failure's fast-check seed and shrunk path
 * are compared. The seed is in the console, conformance.json and manifest.json; `--seed` and
 * `--explore-seeds` are recorded as given.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SEED } from '../../contract/run-seed.ts';
import type { ConformanceReport } from '../../contract/report/model.ts';
import { cliRun } from './run-cli.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(600_000);

const dir = mkdtempSync(join(tmpdir(), 'determinism-'));
const SELECTION = ['--grep', '@(CF-005|METER-009|AUTH-002|AUTH-003)\\b'];
const MUTANT = { MOCK_MUTANT: 'custom-field-id-zero-accepted' };

/**
 * What a run decided: each requirement's verdict, each test's status, and each failure's fast-check seed
 * and path (a property) or first message line (an assertion; request ids, unique per response, masked).
 */
function verdicts(report: ConformanceReport): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of report.requirements) {
    out[r.id] = r.verdict;
    for (const [i, f] of r.failures.entries()) out[`${r.id} failure ${i}`] = `${f.test}: ${/\{ seed: -?\d+, path: "[\d:]+"/.exec(f.message)?.[0] ?? f.message.split('\n')[0]!.replace(/req_[A-Za-z0-9]+/g, 'req_…')}`;
    for (const t of r.tests) out[`${r.id} test ${t.title}`] = t.status;
  }
  return out;
}

const read = (name: string, file: string) => JSON.parse(readFileSync(join(dir, name, file), 'utf8'));

test('two runs with the same seed give the same verdicts, and record the seed', async () => {
  const first = await cliRun(['run', ...SELECTION, '--output', join(dir, 'a')], MUTANT);
  const second = await cliRun(['run', ...SELECTION, '--output', join(dir, 'b')], MUTANT);
  expect(first.code, first.output.slice(-2000)).toBe(1);
  expect(second.code, second.output.slice(-2000)).toBe(1);
  const a = read('a', 'conformance.json') as ConformanceReport;
  const b = read('b', 'conformance.json') as ConformanceReport;
  // The mutant is found, by the property, in both runs: the comparison is of failures too, not only passes.
  expect(a.requirements.find((r) => r.id === 'CF-005')!.verdict).toBe('failed');
  expect(verdicts(b)).toEqual(verdicts(a));
  for (const [name, run, report] of [['a', first, a], ['b', second, b]] as const) {
    expect(report.run.seed, name).toBe(DEFAULT_SEED);
    expect(report.run.exploreSeeds, name).toBeUndefined();
    expect(read(name, 'manifest.json').seed, name).toBe(DEFAULT_SEED);
    expect(run.output, name).toContain(`Seed: ${DEFAULT_SEED} — the same seed, kit version and target state give the same verdicts; rerun with --seed ${DEFAULT_SEED}.`);
  }
});

test('--seed and --explore-seeds are recorded as given', async () => {
  const run = await cliRun(['run', '--grep', '@CF-005\\b', '--seed', '5', '--explore-seeds', '2', '--allow-incomplete', '--output', join(dir, 'c')]);
  expect(run.code, run.output.slice(-2000)).toBe(0);
  const report = read('c', 'conformance.json') as ConformanceReport;
  expect(report.run.seed).toBe(5);
  expect(report.run.exploreSeeds).toBe(2);
  expect(read('c', 'manifest.json').seed).toBe(5);
  expect(run.output).toContain('Seed: 5 (and 2 explored seeds per property)');
  expect((await cliRun(['run', '--seed', 'x', '--output', join(dir, 'd')])).code).toBe(2);
});
