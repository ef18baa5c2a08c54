/**
 * Hostile inputs of the CLI (docs/ci.md, "Exit codes"): `report verify` fails (exit 1) on a manifest
 * that lists no file, names a path outside its folder or is not an object, and never ends in a stack
 * trace (a fast-check fuzz of manifests); `run --output D` where `D/conformance.json` is a folder, and a
 * profile header value with CR/LF, end with one clear line and exit 2.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyCommand } from '../../../cli/manifest.ts';
import { UsageError } from '../../../cli/exit-codes.ts';
import { cliRun } from '../run-cli.ts';

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mms-hostile-inputs-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** verifyCommand on a bundle whose manifest.json holds `text`; stdout captured. */
function verify(text: string): { code: number | 'usage'; out: string } {
  const bundle = mkdtempSync(join(dir, 'bundle-'));
  writeFileSync(join(bundle, 'manifest.json'), text);
  writeFileSync(join(bundle, 'conformance.json'), '{}');
  let out = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((s: string) => ((out += s), true)) as typeof process.stdout.write;
  try {
    return { code: verifyCommand(bundle), out };
  } catch (e) {
    if (e instanceof UsageError) return { code: 'usage', out: e.message };
    throw e;
  } finally {
    process.stdout.write = write;
  }
}

test('report verify fails on a manifest that lists no file, is not an object, or names a path outside its folder', () => {
  writeFileSync(join(dir, 'outside.txt'), 'x');
  const outsideHash = '2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881';
  for (const text of ['{}', '[]', 'null', '"x"', '42', '{"files":null}', '{"files":{}}', '{"files":[]}', `{"files":{"../outside.txt":"${outsideHash}"}}`, `{"files":{"/etc/hostname":"${outsideHash}"}}`]) {
    const { code, out } = verify(text);
    expect(code, `${text}: ${out}`).toBe(1);
    expect(out).not.toMatch(/^ok:/m);
    expect(out).not.toMatch(/\n\s+at /);
  }
});

test('fuzz: report verify answers every manifest with exit 0 or 1 or one usage line, never an exception', () => {
  const json = fc.jsonValue({ maxDepth: 3 });
  const manifest = fc.oneof(
    json.map((v) => JSON.stringify(v)),
    fc.record({ files: fc.oneof(json, fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('../x', '/etc/passwd', 'conformance.json', '', '.', 'a/../../b')), fc.oneof(json, fc.string()))) }).map((v) => JSON.stringify(v)),
    fc.string(),
  );
  fc.assert(fc.property(manifest, (text) => {
    const { code, out } = verify(text);
    expect([0, 1, 'usage']).toContain(code);
    expect(out).not.toMatch(/\n\s+at /);
    if (code === 'usage') expect(out.split('\n')).toHaveLength(1);
  }), { numRuns: 200, seed: 33 });
});

test('run --output D where D/conformance.json is a folder: one clear line, exit 2', async () => {
  const out = join(dir, 'out-with-folder');
  mkdirSync(join(out, 'conformance.json'), { recursive: true });
  const { code, output } = await cliRun(['run', '--family', 'METER', '--output', out]);
  expect(code).toBe(2);
  expect(output.trim().split('\n')).toHaveLength(1);
  expect(output).toMatch(/conformance\.json is a folder/);
});

test('a profile header value with CR/LF: one clear line naming the header (not its value), exit 2', async () => {
  const profile = join(dir, 'crlf.json');
  writeFileSync(profile, JSON.stringify({ baseUrl: 'http://127.0.0.1:4699/v1', keys: { live: ['sk_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'] }, fixtures: {}, bodies: {}, headers: { 'X-Tenant': 'env:HOSTILE_TENANT' } }));
  for (const args of [['profile', 'check', '--profile', profile], ['run', '--profile', profile, '--family', 'METER', '--output', join(dir, 'crlf-out')]]) {
    const { code, output } = await cliRun(args, { HOSTILE_TENANT: 'acme-secret-tenant\r\nX-Injected: 1' });
    expect(code).toBe(2);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(output).toMatch(/headers\/X-Tenant.*(CR|LF|control)/);
    expect(output).not.toContain('acme-secret-tenant');
  }
});
