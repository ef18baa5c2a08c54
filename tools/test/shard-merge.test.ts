/**
 * Distributed runs (docs/ci.md, "Shards and merge"): three `--shard i/3` runs against the embedded mock, merged with
 * `report merge`, give the same verdict for every requirement as one single run; the merge writes a
 * manifest.json signed with --sign-key that `report verify` accepts, leaves nothing in the temporary
 * folder and prints nothing after the verdict's lines.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import type { ConformanceReport } from '../../contract/report/model.ts';

test.setTimeout(600_000);

const FAMILIES = 'METER,READ,AUTH,WOC';

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'bin/mms-conformance.mjs'), ...args], { cwd: ROOT, env: { ...process.env, CI: '1', ...env } });
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
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(join(dir, 'sign.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(dir, 'sign.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const merged = await cli(['report', 'merge', ...[1, 2, 3].map((i) => join(dir, `shard-${i}`)), '--allow-incomplete', '--sign-key', join(dir, 'sign.pem'), '--output', join(dir, 'merged')], { TMPDIR: tmp });
  expect(merged.code, merged.output).toBe(0);
  // Quiet: the kit's verdict, root causes and reports' line end the output; no staging folder is left behind.
  expect(merged.output).toMatch(/^Conformance: INCOMPLETE/m);
  expect(merged.output.trim().split('\n').at(-1), merged.output).toMatch(/^Reports: /);
  expect(merged.output).not.toMatch(/merging reports|extracting:|building final report/);
  expect(readdirSync(tmp).filter((n) => n.startsWith('mms-'))).toEqual([]);
  const manifest = JSON.parse(readFileSync(join(dir, 'merged', 'manifest.json'), 'utf8')) as { verdict: string; files: Record<string, string>; shards: Record<string, string> };
  expect(Object.keys(manifest.shards)).toEqual(['shard-1-of-3.zip', 'shard-2-of-3.zip', 'shard-3-of-3.zip']);
  expect(manifest.files['conformance.json']).toMatch(/^[0-9a-f]{64}$/);
  const verified = await cli(['report', 'verify', join(dir, 'merged'), '--public-key', join(dir, 'sign.pub.pem')]);
  expect(verified.output).toContain('hashes and signature match');
  expect(verified.code).toBe(0);
  const junit = join(dir, 'merged', 'conformance-junit.xml');
  writeFileSync(junit, `${readFileSync(junit, 'utf8')} `);
  const tampered = await cli(['report', 'verify', join(dir, 'merged'), '--public-key', join(dir, 'sign.pub.pem')]);
  expect(tampered.output).toContain('conformance-junit.xml: SHA-256 differs');
  expect(tampered.code).toBe(1);
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
