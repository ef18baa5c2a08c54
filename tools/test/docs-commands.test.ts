/**
 * Docs as tests (docs/maintainers.md, "Docs as tests"): every shell block of README.md and docs/*.md that
 * is not marked as an illustration (```` ```sh illustration ````) runs here, as written, in a user's
 * folder: the kit installed from its tarball (`npm pack` of this repository, beside the folder's
 * package.json, as docs/vendors.md tells a user to), `my-target.json` and `t.json` the profile of an
 * embedded mock started here, `signing-key.pem`/`signing-key.pub.pem` an Ed25519 pair. A block that
 * fails (a non-zero exit, or a transcript's expected line missing) fails its test; the blocks are read
 * from whatever the docs hold when the test runs (tools/lib/doc-blocks.ts).
 */
import { test, expect } from '@playwright/test';
import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import { allShellBlocks, shellBlocks, type ShellBlock } from '../lib/doc-blocks.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(900_000);

const blocks = allShellBlocks(ROOT);
const folder = mkdtempSync(join(tmpdir(), 'docs-run-'));
/** What the folder keeps between blocks: the installed kit and its tarball. */
const KEPT = /^(node_modules|package\.json|package-lock\.json|mms-conformance-kit-.*\.tgz)$/;
const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(npm_|REPORTS_DIR$|TARGET_|GITHUB_STEP_SUMMARY$|WORKERS$)/i.test(name)));
Object.assign(env, { CI: '1', NODE_OPTIONS: '', npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' });
let mock: RunningMock;
const prepared: Record<string, string> = {};

/** Runs `script` with bash in the folder; resolves to its exit code and output. */
function bash(script: string, flags: string[] = ['-eo', 'pipefail']): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['--noprofile', '--norc', ...flags, '-c', script], { cwd: folder, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('exit', (code) => done({ code: code ?? -1, output }));
  });
}

/** Back to a user's folder before the block: the installed kit, the profiles and keys (not those the block writes itself with `--output`). */
function reset(block: ShellBlock): void {
  for (const entry of readdirSync(folder)) if (!KEPT.test(entry)) rmSync(join(folder, entry), { recursive: true, force: true });
  const written = new Set([...block.text.matchAll(/profile init\b[^\n]*--output\s+(\S+)/g)].map((m) => m[1]!));
  for (const [name, content] of Object.entries(prepared)) if (!written.has(name)) writeFileSync(join(folder, name), content);
}

test.beforeAll(async () => {
  mock = await startMock({ port: 0, seed: 1 });
  execFileSync('npm', ['pack', '--silent', '--pack-destination', folder], { cwd: ROOT, stdio: 'pipe' });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'my-project', private: true }));
  execFileSync('bash', ['-c', 'npm install --save-dev --ignore-scripts ./mms-conformance-kit-*.tgz'], { cwd: folder, env, stdio: 'pipe' });
  const profile = `${JSON.stringify(mock.profile, null, 2)}\n`;
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  Object.assign(prepared, { 'my-target.json': profile, 't.json': profile, 'signing-key.pem': privateKey.export({ type: 'pkcs8', format: 'pem' }), 'signing-key.pub.pem': publicKey.export({ type: 'spki', format: 'pem' }) });
});

test.afterAll(async () => {
  await mock?.stop();
  rmSync(folder, { recursive: true, force: true });
});

test('the block reader finds shell blocks and transcripts, and the illustration mark', () => {
  const md = ['```sh', 'npx mms-conformance run', '```', '```sh illustration', 'curl https://x/v1', '```', '```', '$ echo hi', 'hi', '```', '```', 'a ──► b', '```', '```yaml', 'a: 1', '```'].join('\n');
  const found = shellBlocks(md, 'x.md');
  expect(found.map((b) => [b.where, b.illustration])).toEqual([['x.md:1', false], ['x.md:4', true], ['x.md:7', false]]);
  expect(found[2]!.transcript).toEqual([{ command: 'echo hi', expected: ['hi'] }]);
  expect(blocks.length, 'the docs hold shell blocks').toBeGreaterThan(5);
  expect(blocks.filter((b) => !b.illustration).length, 'some blocks run').toBeGreaterThan(2);
});

/** Blocks already run, by their text: a block repeated on another page (README and docs/vendors.md) runs once. */
const passed = new Set<string>();

for (const block of blocks.filter((b) => !b.illustration)) {
  test(`${block.where} runs as written`, async () => {
    if (passed.has(block.text)) return;
    reset(block);
    if (!block.transcript) {
      const r = await bash(block.text);
      expect(r.code, `${block.where}:\n${block.text}\n--- output (last lines):\n${r.output.split('\n').slice(-25).join('\n')}`).toBe(0);
      passed.add(block.text);
      return;
    }
    // A transcript: each command's output (stdout and stderr) lands in a file of its own; `$?` carries over.
    const script = block.transcript.map((s, i) => `{ ${s.command}\n} > .out-${i} 2>&1`).join('\n');
    await bash(script, []);
    for (const [i, step] of block.transcript.entries()) {
      const output = execFileSync('cat', [join(folder, `.out-${i}`)], { encoding: 'utf8' });
      for (const line of step.expected) expect(output, `${block.where}: \`${step.command}\` prints ${line}`).toContain(line);
    }
  });
}
