/**
 * No secrets anywhere (issue 5 §3): a run with known keys — against a mock that fails some requests, so
 * failures carry evidence — writes no key of the profile, unredacted, into any report, trace, log or
 * console line. Redacted forms (sk_live_****abcd) are expected to appear.
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { ROOT } from '../../spec/lib/paths.ts';
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
  const run = spawnSync(process.execPath, [resolve(ROOT, 'bin/mms-conformance.mjs'), 'run', '--target', mock.baseUrl, '--profile', profile, '--family', 'METER,AUTH', '--output', output, '--workers', '2'], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '1' }, timeout: 280_000,
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
