/**
 * `npm run mock` start-up and shutdown (docs/integrators.md;
 * docs/design.md §4): mock/main.ts in a child process. A port
 * already in use is one clear line on stderr and exit code 2; SIGINT (Ctrl-C) stops a serving mock,
 * even with a client connection open, with exit code 0. No timing assertions.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { ROOT } from '../../contract/paths.ts';

/** mock/main.ts with `args`: its output so far, its exit, and its API base once it prints it. */
function startMain(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/main.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MMS_MOCK_CONTROL_TOKEN: '' } });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (c: Buffer) => (output.stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output.stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const ready = new Promise<string>((done, fail) => {
    child.stdout!.on('data', () => {
      const m = /API base\s+(http:\S+)\/v1/.exec(output.stdout);
      if (m) done(m[1]!);
    });
    exited.then(({ code }) => fail(new Error(`mock/main.ts exited with ${code} before it was ready: ${output.stderr}`)));
  });
  ready.catch(() => {}); // awaited only by tests that expect the mock to start
  return { child, output, exited, ready };
}

const TOKEN = 'main-test-control-token-0123456789';

let blocker: Server;
test.afterEach(() => blocker?.close());

test('a busy port prints one clear line on stderr and exits with code 2', async () => {
  blocker = createServer();
  await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
  const port = (blocker.address() as { port: number }).port;
  const run = startMain(['--port', String(port)]);
  expect(await run.exited).toEqual({ code: 2, signal: null });
  expect(run.output.stderr).toBe(`mock: cannot start: port ${port} on 127.0.0.1 is already in use (try --port 0 or another port)\n`);
  expect(run.output.stdout).toBe('');
});

test('SIGINT stops a serving mock with exit code 0, with a client connection still open', async () => {
  const run = startMain(['--port', '0', '--control-token', TOKEN]);
  const url = await run.ready;
  const agent = new Agent({ keepAlive: true });
  const status = await new Promise<number>((done, fail) => {
    request(`${url}/__mock/health`, { agent, headers: { 'x-mock-control-token': TOKEN } }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode!));
    }).on('error', fail).end();
  });
  expect(status).toBe(200);
  expect(agent.freeSockets[Object.keys(agent.freeSockets)[0]!]?.length).toBe(1);
  run.child.kill('SIGINT');
  expect(await run.exited).toEqual({ code: 0, signal: null });
  agent.destroy();
});

test('the banner prints the control token once and no key in full; the profile file and GET /__mock/profile hold them', async () => {
  const run = startMain(['--port', '0', '--control-token', TOKEN]);
  await run.ready;
  run.child.kill('SIGINT');
  await run.exited;
  const profile = JSON.parse(readFileSync(`${ROOT}/fixtures/targets/mock.json`, 'utf8')) as { keys: Record<string, unknown> };
  const secrets = JSON.stringify(profile.keys).match(/sk_(live|test)_[A-Za-z0-9]+/g)!;
  for (const secret of secrets) expect(run.output.stdout, 'no key in full').not.toContain(secret);
  expect(run.output.stdout).toMatch(/sk_live_…[A-Za-z0-9]{4}/);
  expect(run.output.stdout.split(TOKEN).length - 1, 'the token, printed once').toBe(1);
  expect(run.output.stdout).toContain('/__mock/profile');
});

test('--host 0.0.0.0 without --control-token: one line on stderr, exit code 2', async () => {
  const run = startMain(['--port', '0', '--host', '0.0.0.0']);
  expect(await run.exited).toEqual({ code: 2, signal: null });
  expect(run.output.stderr).toMatch(/^mock: cannot start: --host 0\.0\.0\.0 is not a loopback address: the control API needs --control-token T there \(or turn it off with --no-control\)\n$/);
  expect(run.output.stdout).toBe('');
});
