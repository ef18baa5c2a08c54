/**
 * `run` facing every switch of the hostile target in one narrow run (`rotate`: each request the next
 * switch; `--timeout` short, so a hang costs seconds): the CLI ends with complete reports (exit 1) or
 * one clear line (exit 2); every JSON output parses; no secret of the profile (keys, the `env:` header
 * value, the credential header) is in any file — Playwright's report, its embedded zip and data/,
 * test-results/, the HAR, the Markdown — or on the console; no raw escape on the console or in the
 * Markdown, no active HTML in the Markdown or the HTML report.
 */
import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliRun } from '../run-cli.ts';
import { HOSTILE_SWITCHES, startHostile } from './server.ts';
import { expectCleanOutputs, expectNoActiveHtml, expectNoSecret, expectPlainConsole, filesUnder, hostileProfileText, SECRETS } from './checks.ts';

test('run facing every switch of a hostile target: complete, parseable, redacted, inert outputs', async () => {
  test.setTimeout(180_000);
  const dir = mkdtempSync(join(tmpdir(), 'mms-hostile-run-'));
  const hostile = await startHostile('rotate');
  try {
    const profile = join(dir, 'profile.json');
    writeFileSync(profile, hostileProfileText(hostile.baseUrl));
    const out = join(dir, 'out');
    // The meters family: each test fails at its first request or two, more requests in all than switches.
    const { code, output } = await cliRun(['run', '--profile', profile, '--no-profile-check', '--family', 'METER', '--workers', '1', '--timeout', '3000', '--output', out], { HOSTILE_TENANT: SECRETS.tenant, FORCE_COLOR: '0' });
    expect([...hostile.served].sort(), output).toEqual([...HOSTILE_SWITCHES].sort());
    expectNoSecret(output, `console: ${output}`);
    expectPlainConsole(output, `console: ${JSON.stringify(output)}`);
    expect([1, 2], output).toContain(code);
    if (code === 2) {
      expect(output.trim().split('\n')).toHaveLength(1);
      return;
    }
    for (const file of ['conformance.json', 'conformance.html', 'conformance.md', 'conformance-junit.xml', 'exchanges.har', 'manifest.json']) expect(existsSync(join(out, file)), file).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8'))).toMatchObject({ verdict: 'not conformant' });
    expect(filesUnder(join(out, 'playwright')).some((f) => f.name.includes('!'))).toBe(true);
    expectCleanOutputs(out);
    expectNoActiveHtml(readFileSync(join(out, 'conformance.md'), 'utf8'), 'conformance.md');
  } finally {
    await hostile.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
