/**
 * The kit as a vendor gets it (README, "Install"): `npm pack`, installed into an empty folder, runs with
 * no clone. One offline install from the local npm cache (the lockfile's tarballs, present since
 * `npm ci`) serves every assertion: --version, nothing native installed (the store drivers are optional
 * peers), `mock` (start, one request, stop), `run --family METER`
 * against the embedded mock with reports and a signed manifest in the caller's folder, `report verify`.
 */
import { test, expect } from '@playwright/test';
import { execFileSync, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(600_000);

const kit = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const dir = mkdtempSync(join(tmpdir(), 'kit-install-'));
const env: NodeJS.ProcessEnv = { ...process.env, CI: '1', NODE_OPTIONS: '' };
for (const name of ['REPORTS_DIR', 'TARGET_URL', 'TARGET_PROFILE', 'TARGET_EMBEDDED']) delete env[name];

/** A consumer folder depending on the tarball, with a lockfile made of the kit's own runtime entries, so `npm ci --offline` needs no registry. */
function writeConsumer(tarball: string): void {
  const lock = JSON.parse(readFileSync(resolve(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, Record<string, unknown>> };
  const root = lock.packages['']!;
  const dependencies = { [kit.name]: `file:${tarball}` };
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies },
    [`node_modules/${kit.name}`]: { version: kit.version, resolved: `file:${tarball}`, dependencies: root.dependencies, bin: root.bin, engines: root.engines },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path !== '' && !entry.dev) packages[path] = entry;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, dependencies }));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }));
}

const bin = () => join(dir, 'node_modules', '.bin', 'mms-conformance');
const cli = (args: string[]) => new Promise<{ code: number | null; output: string }>((done) => {
  const child = spawn(bin(), args, { cwd: dir, env });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  child.on('exit', (code) => done({ code, output }));
});

test.beforeAll(() => {
  const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').at(-1)!;
  writeConsumer(tarball);
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'pipe' });
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the installed kit holds no tests and answers --version', async () => {
  const installed = join(dir, 'node_modules', kit.name);
  expect(existsSync(join(installed, 'suites', 'playwright.config.ts'))).toBe(true);
  for (const absent of ['mock/test', 'suites/test', 'tools', 'bench']) expect(existsSync(join(installed, absent)), absent).toBe(false);
  const { code, output } = await cli(['--version']);
  expect(output.trim()).toBe(kit.version);
  expect(code).toBe(0);
});

test('the install compiles nothing: the store drivers are optional, and the file store names the package to add', async () => {
  for (const optional of ['better-sqlite3', 'pg']) expect(existsSync(join(dir, 'node_modules', optional)), optional).toBe(false);
  const { code, output } = await cli(['mock', '--port', '0', '--state', 'mock-state.db']);
  expect(output.trim()).toBe('mock: cannot start: --state FILE needs the package better-sqlite3, an optional dependency of the kit: npm install better-sqlite3');
  expect(code).toBe(2);
  const pg = await cli(['mock', '--port', '0', '--state', 'postgres://mock@127.0.0.1:1/mock']);
  expect(pg.output.trim()).toBe('mock: cannot start: --state postgres:// needs the package pg, an optional dependency of the kit: npm install pg');
  expect(pg.code).toBe(2);
});

test('mock starts from the installed kit, answers a request and stops', async () => {
  const token = 'package-test-control-token';
  const child = spawn(bin(), ['mock', '--port', '0', '--control-token', token], { cwd: dir, env });
  const base = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /API base\s+(http:\/\/\S+\/v1)/.exec(out);
      if (m) done(m[1]!);
    });
    child.on('exit', (code) => fail(new Error(`mock exited with ${code}: ${out}`)));
  });
  const keys = (await (await fetch(base.replace(/\/v1$/, '/__mock/profile'), { headers: { 'x-mock-control-token': token } })).json()) as { keys: { live: string[] } };
  const res = await fetch(`${base}/meters?limit=1`, { headers: { authorization: `Bearer ${keys.keys.live[0]}` } });
  expect(res.status).toBe(200);
  const exited = new Promise<number | null>((done) => child.on('exit', done));
  child.kill('SIGINT');
  expect(await exited).toBe(0);
});

test('the first call, the journal, the inspector page and client-report work from the installed kit', async () => {
  const child = spawn(bin(), ['mock', '--port', '0', '--journal', '--keys-out', 'mms.env'], { cwd: dir, env: { ...env, MMS_MOCK_CONTROL_TOKEN: '' } });
  const banner = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (/journal\?limit=5.*\n/.test(out)) done(out);
    });
    child.on('exit', (code) => fail(new Error(`mock exited with ${code}: ${out}`)));
  });
  try {
    expect(banner).toContain('. ./mms.env');
    const pasted = banner.slice(banner.indexOf('First call')).split('\n').slice(1).filter((l) => l.startsWith('  ')).join('\n');
    const [page, journal] = execFileSync('bash', ['-c', `set -e\n${pasted}`], { cwd: dir, encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));
    expect(page.data).toHaveLength(2);
    expect(journal.entries).toHaveLength(1);
    const origin = /MMS_BASE='(http:\/\/[^']+)\/v1'/.exec(readFileSync(join(dir, 'mms.env'), 'utf8'))![1]!;
    for (const asset of ['', 'inspector.js', 'inspector.css']) expect((await fetch(`${origin}/__mock/inspector/${asset}`)).status, asset).toBe(200);
    const token = /MMS_MOCK_CONTROL_TOKEN='([^']+)'/.exec(readFileSync(join(dir, 'mms.env'), 'utf8'))![1]!;
    const report = await cli(['client-report', '--mock', origin, '--control-token', token, '--output', 'client']);
    expect(report.output).toContain('Client report: clean');
    expect(report.code).toBe(0);
    expect(existsSync(join(dir, 'client', 'client-report.html'))).toBe(true);
  } finally {
    child.kill('SIGINT');
  }
});

test('run --family METER writes reports and a signed manifest in the caller\'s folder; report verify catches one changed byte', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(join(dir, 'sign.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(join(dir, 'sign.pub.pem'), publicKey.export({ type: 'spki', format: 'pem' }));
  const run = await cli(['run', '--family', 'METER', '--allow-incomplete', '--output', 'out', '--sign-key', 'sign.pem', '--workers', '2']);
  expect(run.output).not.toContain('ENOENT');
  expect(run.code).toBe(0);
  const report = JSON.parse(readFileSync(join(dir, 'out', 'conformance.json'), 'utf8')) as { run: { tests: { passed: number } } };
  expect(report.run.tests.passed).toBeGreaterThan(0);
  expect(existsSync(join(dir, 'out', 'manifest.json.sig'))).toBe(true);

  const good = await cli(['report', 'verify', 'out', '--public-key', 'sign.pub.pem']);
  expect(good.output).toContain('hashes and signature match');
  expect(good.code).toBe(0);

  const file = join(dir, 'out', 'conformance.json');
  const bytes = readFileSync(file);
  bytes[10] = bytes[10]! ^ 1;
  writeFileSync(file, bytes);
  const edited = await cli(['report', 'verify', 'out', '--public-key', 'sign.pub.pem']);
  expect(edited.output).toContain('conformance.json: SHA-256 differs');
  expect(edited.code).toBe(1);

  const other = generateKeyPairSync('ed25519').publicKey;
  writeFileSync(join(dir, 'other.pub.pem'), other.export({ type: 'spki', format: 'pem' }));
  bytes[10] = bytes[10]! ^ 1;
  writeFileSync(file, bytes);
  const forged = await cli(['report', 'verify', 'out', '--public-key', 'other.pub.pem']);
  expect(forged.output).toContain('the signature does not match');
  expect(forged.code).toBe(1);
});
