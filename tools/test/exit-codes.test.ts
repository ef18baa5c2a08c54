/**
 * The CLI's exit codes, row by row (docs/ci.md, "Exit codes"; cli/exit-codes.ts), against the embedded mock
 * with short, filtered runs; NOT CONFORMANT comes from a mutant of mock/mutants/catalog.ts. Signals: a
 * run stopped by SIGINT (to its process group, as Ctrl-C does) or SIGTERM (to the CLI alone) exits
 * 130/143, writes no verdict and leaves no process behind.
 */
import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT, verdictExitCode } from '../../cli/exit-codes.ts';
import type { ConformanceReport } from '../../contract/report/model.ts';
import { alive, cliRun, descendants, startCli } from './run-cli.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

const dir = mkdtempSync(join(tmpdir(), 'exit-codes-'));
const out = (name: string) => join(dir, name);

test('a verdict maps to 0 only when conformant, or incomplete when allowed', () => {
  expect(verdictExitCode('conformant')).toBe(EXIT.ok);
  expect(verdictExitCode('incomplete')).toBe(EXIT.failed);
  expect(verdictExitCode('incomplete', true)).toBe(EXIT.ok);
  expect(verdictExitCode('not conformant', true)).toBe(EXIT.failed);
});

const ROWS: Array<{ row: string; args: string[]; env?: NodeJS.ProcessEnv; code: number; says: RegExp }> = [
  { row: 'incomplete without --allow-incomplete', args: ['--family', 'METER', '--output', out('incomplete')], code: 1, says: /Conformance: INCOMPLETE/ },
  { row: 'incomplete with --allow-incomplete', args: ['--family', 'METER', '--allow-incomplete', '--output', out('allowed')], code: 0, says: /Conformance: INCOMPLETE/ },
  { row: 'not conformant (a mutant), --allow-incomplete or not', args: ['--grep', '@METER-002\\b', '--allow-incomplete', '--output', out('mutant')], env: { MOCK_MUTANT: 'create-meter-200' }, code: 1, says: /Conformance: NOT CONFORMANT/ },
  { row: 'a must requirement passed → not assessed against --baseline', args: ['--grep', '@METER-002\\b', '--allow-incomplete', '--baseline', out('allowed/conformance.json'), '--output', out('regressed')], code: 1, says: /REGRESSION METER-013 \(must\): passed → not assessed/ },
  { row: 'a --grep matching nothing', args: ['--grep', 'no test is called this', '--output', out('nothing')], code: 2, says: /mms-conformance: no test matches the selection/ },
  { row: 'an output folder that cannot be made', args: ['--family', 'METER', '--output', join(out('a-file'), 'reports')], code: 2, says: /mms-conformance: cannot write to the output folder .*ENOTDIR/ },
];

for (const r of ROWS) {
  test(`run: ${r.row} → exit ${r.code}`, async () => {
    writeFileSync(out('a-file'), '');
    const run = await cliRun(['run', '--workers', '2', ...r.args], r.env);
    expect(run.code, run.output).toBe(r.code);
    expect(run.output).toMatch(r.says);
    if (r.code === 2) expect(run.output.trim().split('\n').filter((l) => l.startsWith('mms-conformance:'))).toHaveLength(1);
  });
}

for (const [signal, code, toGroup] of [['SIGINT', 130, true], ['SIGTERM', 143, false]] as const) {
  test(`run: ${signal} to the ${toGroup ? 'process group' : 'CLI alone'} → exit ${code}, no verdict, nothing left running`, async () => {
    const output = out(`signal-${signal}`);
    const run = startCli(['run', '--family', 'METER,READ,AUTH', '--workers', '2', '--output', output]);
    await expect.poll(() => /\[\s*\d+\/\d+\]/.test(run.output()), { timeout: 60_000 }).toBe(true);
    const processes = descendants(run.child.pid!);
    expect(processes.some((p) => p.cmd.includes('playwright')), JSON.stringify(processes)).toBe(true);
    process.kill(toGroup ? -run.child.pid! : run.child.pid!, signal);
    const exit = await run.exit;
    expect(exit.code, run.output()).toBe(code);
    expect(run.output()).toContain(`interrupted by ${signal}`);
    expect(processes.filter((p) => alive(p.pid))).toEqual([]);
    expect(existsSync(join(output, 'conformance.json'))).toBe(false);
    expect(run.output()).not.toMatch(/NOT CONFORMANT/);
  });
}

test('report merge of a run without blobs is one line and exit 2', async () => {
  const run = await cliRun(['report', 'merge', out('incomplete'), '--output', out('merged')]);
  expect(run.code, run.output).toBe(2);
  expect(run.output).toMatch(/holds no blob report/);
});

test('the regression row compared a real baseline', () => {
  const before = JSON.parse(readFileSync(out('allowed/conformance.json'), 'utf8')) as ConformanceReport;
  expect(before.requirements.find((r) => r.id === 'METER-013')?.verdict).toBe('passed');
});
