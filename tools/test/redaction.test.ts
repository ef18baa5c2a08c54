/**
 * No secrets anywhere (README "Reports": no secret in any output): a run with known keys — against a mock that fails some requests, so
 * failures carry evidence — writes no key of the profile, unredacted, into any report, trace, log or
 * console line. Redacted forms (sk_live_****abcd) are expected to appear.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { ROOT } from '../../contract/paths.ts';
import { profileSecrets } from '../../suites/lib/redact.ts';
import { outputTexts } from './output-files.ts';

test.setTimeout(300_000);
let mock: RunningMock;
test.beforeAll(async () => {
  mock = await startMock({ port: 0 });
  mock.app.faults.set({ errorRate: 1, errorStatus: 503, pathPattern: '^/v1/meters/[^/]+$' });
});
test.afterAll(async () => mock.stop());

test('a run with known keys leaves no key in any output file or console line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'redaction-'));
  const profile = join(dir, 'profile.json');
  writeFileSync(profile, JSON.stringify(mock.profile));
  const output = join(dir, 'out');
  // Asynchronous: the mock answers from this process while the run goes.
  const run = await new Promise<{ status: number; stdout: string; stderr: string }>((done) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'bin/mms-conformance.mjs'), 'run', '--target', mock.baseUrl, '--profile', profile, '--family', 'METER,AUTH', '--output', output, '--workers', '2', '--no-profile-check'], { cwd: ROOT, env: { ...process.env, CI: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => done({ status: code ?? 1, stdout, stderr }));
  });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(1);
  const secrets = profileSecrets(mock.profile as never);
  expect(secrets.length).toBeGreaterThan(20);
  const texts = [{ name: 'stdout', text: run.stdout }, { name: 'stderr', text: run.stderr }, ...outputTexts(output)];
  expect(texts.some((t) => t.name.includes('playwrightReportBase64')), 'the Playwright HTML report was searched').toBe(true);
  expect(texts.some((t) => /sk_live_\*\*\*\*[A-Za-z0-9]{4}/.test(t.text)), 'redacted keys appear in the evidence').toBe(true);
  const leaks = texts.flatMap((t) => secrets.filter((s) => t.text.includes(s)).map((s) => `${t.name} contains ${s.slice(0, 12)}…`));
  expect(leaks).toEqual([]);
});
