/**
 * Distributed runs (docs/ci.md, "Shards and merge"): three `--shard i/3` runs against the embedded mock, merged with
 * `report merge`, give the same verdict for every requirement as one single run.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import type { ConformanceReport } from '../../contract/report/model.ts';

test.setTimeout(600_000);

const FAMILIES = 'METER,READ,AUTH,WOC';

function cli(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'bin/mms-conformance.mjs'), ...args], { cwd: ROOT, env: { ...process.env, CI: '1' } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => done({ code: code ?? 1, output }));
  });
}

const verdicts = (file: string) => Object.fromEntries((JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport).requirements.map((r) => [r.id, r.verdict]));

test('three merged shards give the verdicts of a single run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'shards-'));
  // A family filter assesses part of the catalog: incomplete, allowed.
  const single = await cli(['run', '--family', FAMILIES, '--allow-incomplete', '--output', join(dir, 'single'), '--workers', '2']);
  expect(single.code, single.output).toBe(0);
  const shards = await Promise.all([1, 2, 3].map((i) => cli(['run', '--family', FAMILIES, '--allow-incomplete', '--shard', `${i}/3`, '--output', join(dir, `shard-${i}`), '--workers', '1'])));
  shards.forEach((s, i) => expect(s.code, `shard ${i + 1}: ${s.output}`).toBe(0));
  for (const i of [1, 2, 3]) expect(existsSync(join(dir, `shard-${i}`, 'blob', `shard-${i}-of-3.zip`))).toBe(true);
  const missing = await cli(['report', 'merge', join(dir, 'shard-1'), join(dir, 'shard-2'), '--output', join(dir, 'partial')]);
  expect(missing.code, missing.output).toBe(2);
  expect(missing.output).toContain('shard 3 of 3 is missing');
  const merged = await cli(['report', 'merge', ...[1, 2, 3].map((i) => join(dir, `shard-${i}`)), '--allow-incomplete', '--output', join(dir, 'merged')]);
  expect(merged.code, merged.output).toBe(0);
  const expected = verdicts(join(dir, 'single', 'conformance.json'));
  const actual = verdicts(join(dir, 'merged', 'conformance.json'));
  expect(Object.values(expected).filter((v) => v === 'passed').length).toBeGreaterThan(20);
  expect(actual).toEqual(expected);
  const shardTests = [1, 2, 3].map((i) => (JSON.parse(readFileSync(join(dir, `shard-${i}`, 'conformance.json'), 'utf8')) as ConformanceReport).run.tests.passed);
  expect(shardTests.every((n) => n > 0), 'every shard ran some tests').toBe(true);
  const mergedReport = JSON.parse(readFileSync(join(dir, 'merged', 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(mergedReport.run.shard).toBeNull();
  expect(existsSync(join(dir, 'merged', 'conformance.html'))).toBe(true);
});
