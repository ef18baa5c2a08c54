/**
 * The run's concurrency (contract/concurrency.ts; docs/vendors.md, "Concurrency against a remote
 * target"): `--concurrency` (alias `--workers`) over the profile's `concurrency` over the default, which
 * for a remote target follows its live keys' rate budget and for the embedded mock the cores. Tiny
 * runs (one test) against a mock reached through its profile read the workers Playwright was given
 * from its JSON report.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import { REMOTE_CONCURRENCY, REQUESTS_PER_MINUTE_PER_TEST, runConcurrency } from '../../contract/concurrency.ts';
import { startMock } from '../../mock/server.ts';

const BIN = resolve(ROOT, 'bin/mms-conformance.mjs');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CI: '1' };
    delete env.REPORTS_DIR;
    delete env.WORKERS;
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => done({ code: code ?? -1, stdout, stderr }));
  });
}

const live = (n: number) => Array.from({ length: n }, (_, i) => `sk_live_key${i}`);

test('the option wins, then the profile, then the budget (remote) or the cores (embedded mock)', () => {
  expect(runConcurrency({ option: 3, profile: 9, embedded: false, liveKeys: live(8), cores: 2 })).toEqual({ tests: 3, from: 'option' });
  expect(runConcurrency({ profile: 9, embedded: false, liveKeys: live(8), cores: 2 })).toEqual({ tests: 9, from: 'profile' });
  expect(runConcurrency({ embedded: true, liveKeys: live(8), cores: 2 })).toEqual({ tests: 2, from: 'cores' });
  expect(runConcurrency({ embedded: true, cores: 64 })).toEqual({ tests: 4, from: 'cores' });
});

test("a remote target's default is its live keys' requests a minute over one test's share, within the bounds", () => {
  expect(REQUESTS_PER_MINUTE_PER_TEST).toBe(500);
  // 1,000 a minute per sk_live_ key (Limits): 3 keys, 3,000 a minute, 6 tests at once.
  expect(runConcurrency({ embedded: false, liveKeys: live(3), cores: 2 })).toEqual({ tests: 6, from: 'budget' });
  // 8 keys would allow 16; 20 keys 40, held at the bound.
  expect(runConcurrency({ embedded: false, liveKeys: live(8), cores: 2 }).tests).toBe(16);
  expect(runConcurrency({ embedded: false, liveKeys: live(20), cores: 2 }).tests).toBe(REMOTE_CONCURRENCY.max);
  // One key, or a pool of sk_test_ keys (100 a minute each): the lower bound.
  expect(runConcurrency({ embedded: false, liveKeys: live(1), cores: 2 }).tests).toBe(REMOTE_CONCURRENCY.min);
  expect(runConcurrency({ embedded: false, liveKeys: ['sk_test_a', 'sk_test_b', 'sk_test_c'], cores: 2 }).tests).toBe(REMOTE_CONCURRENCY.min);
});

test('--concurrency and --workers disagreeing, or not a positive integer, is one line and exit 2', async () => {
  const both = await cli(['run', '--family', 'METER', '--concurrency', '2', '--workers', '3', '--output', mkdtempSync(join(tmpdir(), 'concurrency-'))]);
  expect(both.code).toBe(2);
  expect(both.stderr.trim().split('\n')).toEqual(["mms-conformance: --workers is --concurrency's former name: give one of --concurrency 2 and --workers 3"]);
  const zero = await cli(['run', '--concurrency', '0']);
  expect(zero.code).toBe(2);
  expect(zero.stderr).toContain('--concurrency must be a positive integer');
});

test("a remote target's run takes its concurrency from the option, the profile, else its keys' budget", async () => {
  test.setTimeout(180_000);
  const mock = await startMock({ port: 0, seed: 1 });
  try {
    const workersOf = async (profile: object, args: string[]) => {
      const dir = mkdtempSync(join(tmpdir(), 'concurrency-'));
      writeFileSync(join(dir, 'profile.json'), JSON.stringify(profile));
      const r = await cli(['run', '--profile', join(dir, 'profile.json'), '--no-profile-check', '--grep', 'METER-015', '--allow-incomplete', '--reporter', 'json', '--output', dir, ...args]);
      expect(r.code, r.stderr + r.stdout.slice(-2000)).toBe(0);
      return (JSON.parse(readFileSync(join(dir, 'playwright-json.json'), 'utf8')) as { config: { workers: number } }).config.workers;
    };
    const keys = (mock.profile.keys as { live: string[] }).live;
    expect(await workersOf({ ...mock.profile, concurrency: 3 }, [])).toBe(3);
    expect(await workersOf({ ...mock.profile, concurrency: 3 }, ['--workers', '5'])).toBe(5);
    expect(await workersOf(mock.profile, [])).toBe(runConcurrency({ embedded: false, liveKeys: keys, cores: 2 }).tests);
  } finally {
    await new Promise((done) => mock.server.close(done));
  }
});
