/**
 * Helpers of the state-store tests and tools/conformance-on-store.ts (mock/state/; docs/integrators.md,
 * "State and replicas"): mock/main.ts
 * as a child process (so a test can `kill -9` it), and calls to it with a key or the control token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from '../../contract/paths.ts';

export const CONTROL_TOKEN = 'state-test-control-token-0123456789';
/** Demo keys of fixtures/seed/organizations.yaml (public demo secrets). */
export const ACME_LIVE = 'sk_live_DemoAcmeLive1c00aa6c9df1136785562e435437';
export const ACME_TEST = 'sk_test_DemoAcmeTestfeec62c1e4e52a78a2fef50334da';

export interface ChildMock {
  child: ChildProcess;
  /** `http://127.0.0.1:port` */
  url: string;
  exited: Promise<{ code: number | null; signal: string | null }>;
  output: { stdout: string; stderr: string };
}

/** Starts mock/main.ts with `args` (port 0, the test control token) and resolves once it is ready. */
export async function startChildMock(args: string[]): Promise<ChildMock> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/main.ts', '--port', '0', '--control-token', CONTROL_TOKEN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (c: Buffer) => (output.stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output.stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  const url = await new Promise<string>((done, fail) => {
    child.stdout!.on('data', () => {
      const m = /API base\s+(http:\S+)\/v1/.exec(output.stdout);
      if (m) done(m[1]!);
    });
    exited.then(({ code }) => fail(new Error(`mock/main.ts exited with ${code} before it was ready: ${output.stderr}`)));
  });
  return { child, url, exited, output };
}

/** Kills `mock` with SIGKILL (no chance to flush anything) and waits for its exit. */
export async function killHard(mock: ChildMock): Promise<void> {
  mock.child.kill('SIGKILL');
  await mock.exited;
}

/** `fetch` of `path` on `base` with `key` (a JSON body is sent as application/json). */
export function api(base: string, key: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${key}`, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(30_000),
  });
}

/** `fetch` of a control path (`/__mock/...`) on `base` with the test control token. */
export function control(base: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'x-mock-control-token': CONTROL_TOKEN, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    signal: AbortSignal.timeout(30_000),
  });
}

/** A JSON answer, loosely typed (tests read the fields they assert). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = Record<string, any>;

/** The JSON body of `response`. */
export async function body(response: Response | Promise<Response>): Promise<Loose> {
  return (await (await response).json()) as Loose;
}
