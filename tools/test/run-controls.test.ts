/**
 * Run controls of `mms-conformance run` (docs/vendors.md, "The command line"): --list, -x/--max-failures,
 * --last-failed, --timeout, --retries, bad values; the profile's headers and proxy as the target sees
 * them; relative paths from another working directory; no empty folder left. Filtered runs (METER)
 * against the embedded mock; a mutant of the mock (MOCK_MUTANT) makes failures where a control needs them.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import { requestUse } from '../../contract/profile.ts';
import { startMock } from '../../mock/server.ts';

const BIN = resolve(ROOT, 'bin/mms-conformance.mjs');

function cli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CI: '1', ...opts.env };
    delete env.REPORTS_DIR;
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

const out = () => mkdtempSync(join(tmpdir(), 'controls-'));
const report = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { verdict: string; run: { tests: { total: number; failed: number } } };
function emptyFolders(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((p) => join(dir, p)).filter((p) => statSync(p).isDirectory() && readdirSync(p).length === 0);
}

test.setTimeout(300_000);

test('bad control values are one line and exit 2', async () => {
  for (const [args, pattern] of [
    [['--max-failures', '0'], /--max-failures must be a positive integer/],
    [['--timeout', 'soon'], /--timeout must be a positive integer/],
    [['--retries', '-1'], /--retries/],
    [['-x', '--max-failures', '3'], /-x means --max-failures 1/],
    [['--last-failed', '--output', out()], /--last-failed: no previous run/],
  ] as Array<[string[], RegExp]>) {
    const r = await cli(['run', '--family', 'METER', ...args]);
    expect(r.code, args.join(' ')).toBe(2);
    expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  }
});

test('--list prints the selected tests with their requirement tags and runs nothing', async () => {
  const dir = out();
  const r = await cli(['run', '--family', 'METER', '--list', '--output', dir]);
  expect(r.code, r.stderr).toBe(0);
  const lines = r.stdout.trim().split('\n');
  const tests = lines.slice(0, -1);
  expect(tests.length).toBeGreaterThan(5);
  for (const line of tests) expect(line).toMatch(/^(conformance|properties|generative|serial) › \S+\.spec\.ts:\d+ › .+ {2}(@[A-Z]+-\d{3}\b ?)+/);
  for (const line of tests) expect(line).toMatch(/@METER-\d{3}/);
  expect(lines.at(-1)).toMatch(new RegExp(`^${tests.length} tests in \\d+ files$`));
  expect(existsSync(join(dir, 'conformance.json'))).toBe(false);
});

test('-x stops at the first failure with a verdict; --last-failed then reruns only what failed or did not run', async () => {
  const dir = out();
  const listed = (await cli(['run', '--family', 'METER', '--list'])).stdout.trim().split('\n').length - 1;
  const first = await cli(['run', '--family', 'METER', '-x', '--workers', '1', '--output', dir], { env: { MOCK_MUTANT: 'get-meter-203' } });
  expect(first.code, first.stderr).toBe(1);
  expect(first.stdout).toContain('--max-failures');
  const stopped = report(dir);
  expect(stopped.verdict).toBe('not conformant');
  expect(stopped.run.tests.failed).toBe(1);
  expect(stopped.run.tests.total).toBeLessThan(listed);
  const failedIds = (JSON.parse(readFileSync(join(dir, 'test-results/.last-run.json'), 'utf8')) as { failedTests: string[] }).failedTests;
  expect(failedIds.length).toBeGreaterThan(0);
  expect(emptyFolders(dir)).toEqual([]);

  const rerun = await cli(['run', '--family', 'METER', '--last-failed', '--allow-incomplete', '--workers', '2', '--output', dir]);
  expect(rerun.code, rerun.stderr).toBe(0);
  expect(report(dir).run.tests.total).toBeLessThanOrEqual(failedIds.length);
  expect(report(dir).run.tests.failed).toBe(0);
  const again = await cli(['run', '--family', 'METER', '--last-failed', '--output', dir]);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain('nothing to rerun');
});

test('a failing run keeps its worker, and every failed test is a failure in every output and the exit code', async () => {
  const dir = out();
  const r = await cli(['run', '--family', 'METER', '--workers', '1', '--reporter', 'json', '--output', dir], { env: { MOCK_MUTANT: 'get-meter-203' } });
  expect(r.code, r.stderr).toBe(1);
  const kit = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { verdict: string; run: { tests: { failed: number } }; requirements: Array<{ id: string; verdict: string; level: string }> };
  const failed = kit.requirements.filter((q) => q.verdict === 'failed').map((q) => q.id);
  const failedMust = kit.requirements.filter((q) => q.verdict === 'failed' && q.level === 'must').map((q) => q.id);
  expect(kit.verdict).toBe('not conformant');
  expect(kit.run.tests.failed).toBeGreaterThan(1);
  expect(failed).toContain('SPEC-001');
  for (const id of failedMust) expect(readFileSync(join(dir, 'conformance-junit.xml'), 'utf8')).toMatch(new RegExp(`<testcase [^>]*name="${id}[^"]*"[^>]*>\\s*<failure`));
  for (const id of failed) {
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain(id);
    expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toContain(id);
  }
  expect(r.stdout).toContain('SPEC-001');
  // Playwright's own view: the same failures, on one worker of the conformance project (none recycled).
  interface Suite { specs?: Array<{ tests: Array<{ projectName: string; status: string; results: Array<{ workerIndex: number; status: string }> }> }>; suites?: Suite[] }
  const own = JSON.parse(readFileSync(join(dir, 'playwright-json.json'), 'utf8')) as { stats: { unexpected: number }; suites: Suite[] };
  const tests: NonNullable<Suite['specs']>[number]['tests'] = [];
  const walk = (s: Suite) => { for (const spec of s.specs ?? []) tests.push(...spec.tests); for (const c of s.suites ?? []) walk(c); };
  own.suites.forEach(walk);
  expect(own.stats.unexpected).toBe(kit.run.tests.failed);
  const conformance = tests.filter((t) => t.projectName === 'conformance');
  expect(conformance.filter((t) => t.status === 'unexpected').length).toBeGreaterThan(1);
  expect(new Set(conformance.flatMap((t) => t.results.map((x) => x.workerIndex))).size).toBe(1);
  const lastFailed = (JSON.parse(readFileSync(join(dir, 'test-results/.last-run.json'), 'utf8')) as { failedTests: string[] }).failedTests;
  expect(lastFailed).toHaveLength(kit.run.tests.failed);
});

test('--timeout and --retries reach the runner', async () => {
  // A 1 ms budget times the test out (the global setup's target check keeps at least 1 s): a failed test, exit 1.
  const tightDir = out();
  const tight = await cli(['run', '--family', 'METER', '--grep', 'METER-015', '--timeout', '1', '--reporter', 'json', '--output', tightDir]);
  expect(tight.code, tight.stderr).toBe(1);
  expect(readFileSync(join(tightDir, 'playwright-json.json'), 'utf8')).toContain('"status": "timedOut"');
  // Against the mutant a failing test runs again on --retries 1: the report counts the requests of both attempts.
  const requests = async (retries: string) => {
    const dir = out();
    const r = await cli(['run', '--family', 'METER', '--grep', 'reads back', '--retries', retries, '--workers', '1', '--output', dir], { env: { MOCK_MUTANT: 'get-meter-203' } });
    expect(r.code, r.stderr).toBe(1);
    return (JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as { run: { requests: number } }).run.requests;
  };
  const once = await requests('0');
  expect(await requests('1')).toBeGreaterThan(once);
});

test('paths are the caller\'s: a run from another folder writes its relative --output there', async () => {
  const cwd = out();
  writeFileSync(join(cwd, 'waivers.yaml'), readFileSync(resolve(ROOT, 'examples/waivers.example.yaml')));
  const r = await cli(['run', '--family', 'METER', '--grep', 'METER-015', '--waivers', 'waivers.yaml', '--output', 'out', '--allow-incomplete'], { cwd });
  expect(r.code, r.stderr).toBe(0);
  expect(existsSync(join(cwd, 'out/conformance.json'))).toBe(true);
  expect(emptyFolders(join(cwd, 'out'))).toEqual([]);
});

test.describe('profile request options', () => {
  test('requestUse maps headers, TLS and proxy to Playwright options and never Authorization', () => {
    for (const [profile, use] of [
      [{}, {}],
      [{ headers: { 'X-Tenant': 'acme', authorization: 'Bearer x' } }, { extraHTTPHeaders: { 'X-Tenant': 'acme' } }],
      [{ tls: { insecure: true, ca: '/ca.pem' } }, { ignoreHTTPSErrors: true }],
      [{ tls: { insecure: false } }, {}],
      [{ proxy: { server: 'http://p:3128' } }, { proxy: { server: 'http://p:3128' } }],
      [{ proxy: { server: 'http://p:3128', bypass: 'localhost' } }, { proxy: { server: 'http://p:3128', bypass: 'localhost' } }],
    ] as const) expect(requestUse(profile as never)).toEqual(use);
  });

  test('the target sees the profile\'s headers (env: values resolved), through the profile\'s proxy, with its own Authorization', async () => {
    const mock = await startMock({ port: 0, seed: 1 });
    const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
    const tunnels: string[] = [];
    // The target's front: records what it receives and passes it to the mock.
    const front = createServer((req, res) => {
      seen.push({ url: req.url!, headers: req.headers });
      const upstream = httpRequest(`${mock.url}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode!, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    // The proxy: Playwright tunnels through it (CONNECT); each tunnel leads into the front.
    const proxy = createServer();
    proxy.on('connect', (req, socket, head) => {
      tunnels.push(req.url!);
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) socket.unshift(head);
      front.emit('connection', socket);
    });
    await new Promise<void>((done) => proxy.listen(0, '127.0.0.1', done));
    try {
      const dir = out();
      const profile = { ...mock.profile, headers: { 'X-Tenant': 'env:MMS_TENANT', 'X-Route': 'blue' }, proxy: { server: `http://127.0.0.1:${(proxy.address() as { port: number }).port}` } };
      writeFileSync(join(dir, 'profile.json'), JSON.stringify(profile));
      const r = await cli(['run', '--profile', join(dir, 'profile.json'), '--family', 'METER', '--grep', 'METER-015', '--allow-incomplete', '--output', dir], { env: { MMS_TENANT: 'acme' } });
      expect(r.code, r.stderr + r.stdout.slice(-2000)).toBe(0);
      expect(tunnels.length).toBeGreaterThan(0);
      expect(new Set(tunnels)).toEqual(new Set([new URL(mock.url).host]));
      const api = seen.filter((s) => s.url.startsWith('/v1/'));
      expect(api.length).toBeGreaterThan(3);
      for (const s of api) {
        expect(s.headers['x-tenant']).toBe('acme');
        expect(s.headers['x-route']).toBe('blue');
      }
      expect(api.filter((s) => s.headers.authorization?.startsWith('Bearer sk_')).length).toBeGreaterThan(0);
    } finally {
      proxy.close();
      await new Promise((done) => mock.server.close(done));
    }
  });
});

test("--reporter runs one of Playwright's own reporters beside the kit's; an unknown one is one line and exit 2", async () => {
  const dir = out();
  const run = await cli(['run', '--family', 'VER', '--allow-incomplete', '--reporter', 'json', '--output', dir, '--workers', '2']);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const own = JSON.parse(readFileSync(join(dir, 'playwright-json.json'), 'utf8')) as { suites: unknown[]; stats: { expected: number } };
  expect(own.stats.expected).toBeGreaterThan(0);
  expect(report(dir).run.tests.total).toBeGreaterThan(0);
  const bad = await cli(['run', '--reporter', 'fancy', '--output', out()]);
  expect(bad.code).toBe(2);
  expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  expect(bad.stderr).toContain('--reporter must be one of');
});
