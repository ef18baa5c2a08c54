/**
 * The first call in a minute (docs/integrators.md, "Your first call"): the lines `mock` prints on a
 * loopback start, pasted into bash, make a first API call and read the journal; `--keys-out FILE`
 * writes the keys in full to a file only its owner can read, and `. FILE` then works the same. The
 * banner itself never prints a key in full and prints the control token once.
 */
import { test, expect } from '@playwright/test';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import { firstCallLines } from '../first-call.ts';
import type { RunningMock } from '../server.ts';

/** mock/main.ts with `args` until its banner has been printed; then stopped. */
async function banner(args: string[], whileRunning: (stdout: string) => void): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/main.ts', '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, MMS_MOCK_CONTROL_TOKEN: '' } });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((done, fail) => {
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c;
      if (stdout.includes('Ctrl-C stops.') && stdout.endsWith('\n') && /journal\?limit=5/.test(stdout)) done();
    });
    exited.then(() => fail(new Error(`mock exited: ${stderr}`)));
  });
  try {
    whileRunning(stdout);
  } finally {
    child.kill('SIGINT');
    await exited;
  }
  return stdout;
}

const pasted = (stdout: string) => stdout.slice(stdout.indexOf('First call')).split('\n').slice(1).filter((l) => l.startsWith('  ')).map((l) => l.trim()).join('\n');
const keysOf = () => JSON.stringify((JSON.parse(readFileSync(`${ROOT}/fixtures/targets/mock.json`, 'utf8')) as { keys: unknown }).keys).match(/sk_(live|test)_[A-Za-z0-9]+/g)!;

test('the lines printed on a loopback start, pasted into bash, make a first call and read the journal', async () => {
  const stdout = await banner(['--journal'], (out) => {
    const result = execFileSync('bash', ['-c', `set -e\n${pasted(out)}`], { encoding: 'utf8' });
    const [page, journal] = result.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(page.data).toHaveLength(2);
    expect(journal.entries.map((e: { path: string; status: number }) => `${e.path} ${e.status}`)).toEqual(['/v1/meters 200']);
  });
  for (const key of keysOf()) expect(stdout, 'no key in full').not.toContain(key);
  const token = /MMS_MOCK_CONTROL_TOKEN='([^']+)'/.exec(stdout)![1]!;
  expect(stdout.split(token).length - 1, 'the token, printed once').toBe(1);
});

test('--keys-out writes the keys to a file of mode 0600 that the printed lines load', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'keys-out-')), 'mms.env');
  const stdout = await banner(['--journal', '--keys-out', file], (out) => {
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const result = execFileSync('bash', ['-c', `set -e\n${pasted(out)}`], { encoding: 'utf8' });
    expect(JSON.parse(result.split('\n')[0]!).data).toHaveLength(2);
  });
  expect(stdout).toContain(`. ${file}`);
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(`export MMS_KEY='${keysOf()[0]}'`);
  for (const key of keysOf()) expect(stdout, 'no key in full').not.toContain(key);
});

test('a start on a non-loopback address prints no first-call lines (they would carry the token off the machine)', () => {
  const mock = { url: 'http://10.0.0.5:4010', baseUrl: 'http://10.0.0.5:4010/v1', controlToken: 'a-token-of-sixteen-chars' } as unknown as RunningMock;
  expect(firstCallLines(mock, false)).toEqual([]);
  expect(firstCallLines(mock, true).join('\n')).toContain("MMS_MOCK_CONTROL_TOKEN='a-token-of-sixteen-chars'");
  expect(firstCallLines({ ...mock, controlToken: undefined } as RunningMock, true)).toEqual([]);
});

test('a keys file named without a folder is loaded as ./FILE (a POSIX shell searches PATH for `. FILE`)', () => {
  const mock = { url: 'http://127.0.0.1:4010', baseUrl: 'http://127.0.0.1:4010/v1', controlToken: 'a-token-of-sixteen-chars' } as unknown as RunningMock;
  expect(firstCallLines(mock, true, 'mms.env')[1]).toBe('  . ./mms.env');
  expect(firstCallLines(mock, true, '/tmp/x/mms.env')[1]).toBe('  . /tmp/x/mms.env');
});
