/**
 * The CLI's contract (docs/vendors.md, "The command line"; docs/ci.md, "Exit codes"): --help for each command, one clear line and exit code 2 for bad
 * usage, an unreachable target, an invalid profile, waivers or report; `report diff` exit codes.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import { loadCatalog } from '../../contract/catalog.ts';
import { buildReport } from '../../suites/reporter/verdicts.ts';

const cli = (...args: string[]) => spawnSync(process.execPath, [resolve(ROOT, 'bin/mms-conformance.mjs'), ...args], { cwd: ROOT, encoding: 'utf8' });
const dir = mkdtempSync(join(tmpdir(), 'cli-'));

function expectUsageError(r: ReturnType<typeof cli>, pattern: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^mms-conformance: /);
  expect(lines[0]).toMatch(pattern);
}

test('--help for every command', () => {
  for (const args of [[], ['run'], ['mock'], ['proxy'], ['report'], ['report', 'merge'], ['report', 'diff']]) {
    const r = cli(...args, '--help');
    expect(r.status, args.join(' ')).toBe(0);
    expect(r.stdout).toMatch(/^Usage: mms-conformance/);
  }
  for (const args of [['run'], ['report', 'merge']]) expect(cli(...args, '--help').stdout).toMatch(/Exit codes:\n\s+0\s+conformant; or incomplete with --allow-incomplete\n\s+1\s+not conformant/);
});

test('bad flags and values are one line and exit 2', () => {
  expectUsageError(cli('run', '--colour'), /unknown option '--colour'/);
  expectUsageError(cli('run', '--level', 'should'), /--level/);
  expectUsageError(cli('run', '--shard', '4/3'), /--shard 4\/3 must be i\/n/);
  expectUsageError(cli('run', '--family', 'VENDORS'), /unknown family VENDORS/);
  expectUsageError(cli('run', '--grep', '(unclosed'), /--grep is not a regular expression/);
  expectUsageError(cli('run', '--target', 'http://127.0.0.1:4010/v1'), /--target needs --profile/);
  expectUsageError(cli('bogus'), /unknown command 'bogus'/);
});

test('an unreachable target, an invalid profile, waivers or baseline are one line and exit 2', async () => {
  const port = await new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => done(p));
    });
  });
  expectUsageError(cli('run', '--target', `http://127.0.0.1:${port}/v1`, '--profile', 'fixtures/targets/mock.json'), /unreachable: ECONNREFUSED/);
  const badProfile = join(dir, 'bad-profile.json');
  writeFileSync(badProfile, JSON.stringify({ baseUrl: 'http://x/v1', keys: { live: 'not-a-key' } }));
  expectUsageError(cli('run', '--profile', badProfile), /not a valid target profile/);
  expectUsageError(cli('run', '--profile', join(dir, 'missing.json')), /cannot read target profile/);
  expectUsageError(cli('run', '--target', `http://127.0.0.1:${port}/v1`, '--profile', badProfile), /not a valid target profile/);
  const badWaivers = join(dir, 'waivers.yaml');
  writeFileSync(badWaivers, 'waivers:\n  - requirement: METER-4\n    reason: short\n    expires: someday\n');
  expectUsageError(cli('run', '--waivers', badWaivers), /not a valid waiver file/);
  expectUsageError(cli('run', '--baseline', join(dir, 'none.json')), /cannot read report/);
});

test('report diff exits 1 on regressions and 0 otherwise', () => {
  const catalog = loadCatalog();
  const make = (failing: string) => buildReport(catalog.requirements.filter((r) => r.testable).map((r) => ({ id: r.id, title: r.id, file: 'f', line: 1, project: 'p', tags: [`@${r.id}`], status: r.id === failing ? 'failed' as const : 'passed' as const, durationMs: 1, errors: [] })), { catalog, tool: { name: 't', version: '0' }, target: { name: 'x', baseUrl: 'http://x/v1', embedded: false }, spec: { title: 's', version: '1.0' }, startedAt: new Date(), finishedAt: new Date(), shard: null });
  const a = join(dir, 'a.json');
  const b = join(dir, 'b.json');
  writeFileSync(a, JSON.stringify(make('METER-004')));
  writeFileSync(b, JSON.stringify(make('METER-005')));
  writeFileSync(join(dir, 'all-passed.json'), JSON.stringify(make('none')));
  const regressed = cli('report', 'diff', a, b);
  expect(regressed.status).toBe(1);
  expect(regressed.stdout).toContain('REGRESSION METER-005');
  expect(regressed.stdout).toContain('fixed      METER-004');
  expect(cli('report', 'diff', b, b).status).toBe(0);
  const json = JSON.parse(cli('report', 'diff', a, b, '--json').stdout);
  expect(json.regressions.map((r: { id: string }) => r.id)).toEqual(['METER-005']);
  expect(readFileSync(a, 'utf8').length).toBeGreaterThan(1000);
  const inferred = loadCatalog().requirements.find((r) => r.level === 'inferred' && r.testable)!.id;
  const c = join(dir, 'c.json');
  writeFileSync(c, JSON.stringify(make(inferred)));
  const inferredOnly = cli('report', 'diff', join(dir, 'all-passed.json'), c);
  expect(inferredOnly.status, inferredOnly.stdout).toBe(0);
  expect(inferredOnly.stdout).toContain(`regression ${inferred} (inferred, not failing)`);
  const waived = { ...make('METER-005') };
  const req = waived.requirements.find((r) => r.id === 'METER-005')!;
  Object.assign(req, { verdict: 'waived', waiver: { requirement: 'METER-005', reason: 'a known gap of this release', expires: '2099-12-31' } });
  const w = join(dir, 'w.json');
  writeFileSync(w, JSON.stringify(waived));
  const newWaiver = cli('report', 'diff', join(dir, 'all-passed.json'), w);
  expect(newWaiver.status, newWaiver.stdout).toBe(1);
  expect(newWaiver.stdout).toContain('REGRESSION METER-005 (must): passed → waived');
});
