/**
 * The validating proxy facing every switch of the hostile target (tools/test/hostile/server.ts): it
 * never crashes, answers what HTTP allows (the upstream's answer as framed, 502 when the upstream
 * resets, 504 past `upstreamTimeoutMs`), judges framing lies as violations, and its live lines and
 * proxy.json/proxy.html are complete, parseable, free of secrets, escapes and active HTML.
 */
import { test, expect } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProxy } from '../../../proxy/start.ts';
import { writeReport } from '../../../proxy/report.ts';
import { HOSTILE_SWITCHES, startHostile, type HostileSwitch } from './server.ts';
import { expectCleanOutputs, expectNoActiveHtml, expectNoSecret, expectPlainConsole, SECRETS } from './checks.ts';

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mms-hostile-proxy-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the client may see for each switch: the statuses HTTP allows, or `closed` (the connection ends mid-answer). */
const EXPECTED: Record<HostileSwitch, Array<number | 'closed'>> = {
  'long-length': [200], 'short-length': ['closed'], hang: [504], reset: [502], 'half-close': [502], 'huge-body': [200], 'endless-body': [200, 'closed'],
  escapes: [400], html: [400], markdown: [400], 'echo-secrets': [401],
};

async function ask(url: string): Promise<{ status: number | 'closed'; body?: string }> {
  try {
    const res = await fetch(`${url}/v1/meters?limit=1&key=${SECRETS.live}`, { headers: { authorization: `Bearer ${SECRETS.live}`, 'x-api-key': SECRETS.apiKey, 'x-tenant': SECRETS.tenant }, signal: AbortSignal.timeout(4000) });
    if (res.headers.get('transfer-encoding') === 'chunked' && !res.headers.get('content-length')) {
      const reader = res.body!.getReader();
      await reader.read();
      await reader.cancel();
      return { status: res.status };
    }
    return { status: res.status, body: await res.text() };
  } catch {
    return { status: 'closed' };
  }
}

for (const mode of HOSTILE_SWITCHES) {
  test(`proxy facing ${mode}: alive, answers as HTTP allows, clean report`, async () => {
    const hostile = await startHostile(mode);
    const lines: string[] = [];
    const proxy = await startProxy({ upstream: hostile.baseUrl, port: 0, log: (l) => lines.push(l), upstreamTimeoutMs: 800 });
    try {
      const first = await ask(proxy.url);
      expect(EXPECTED[mode], `${mode}: ${first.status}`).toContain(first.status);
      if (first.status === 502 || first.status === 504) expect(JSON.parse(first.body!)).toMatchObject({ status: first.status, code: expect.any(String) });
      // Still alive: a second exchange is answered the same way.
      expect(EXPECTED[mode]).toContain((await ask(proxy.url)).status);
      await proxy.settled();
    } finally {
      const report = await proxy.stop();
      await hostile.stop();
      const out = join(dir, mode);
      writeReport(out, report);
      const json = JSON.parse(readFileSync(join(out, 'proxy.json'), 'utf8')) as { exchanges: number; violations: Array<{ check: string }> };
      if (mode === 'long-length' || mode === 'short-length') expect(json.violations.map((v) => v.check)).toContain('messageFraming');
      expect(readFileSync(join(out, 'proxy.html'), 'utf8')).toMatch(/<\/html>\n$/);
      expectCleanOutputs(out);
      expectNoActiveHtml(readFileSync(join(out, 'proxy.html'), 'utf8'), 'proxy.html');
      for (const line of lines) {
        expectNoSecret(line, `live line ${line}`);
        expectPlainConsole(line, `live line ${JSON.stringify(line)}`);
      }
    }
  });
}

test('the proxy caps its connections and writes its reports atomically, never through a symlink', async () => {
  const hostile = await startHostile('hang');
  const proxy = await startProxy({ upstream: hostile.baseUrl, port: 0, maxConnections: 5 });
  const sockets = Array.from({ length: 12 }, () => connect(proxy.port, '127.0.0.1').on('error', () => {}));
  await new Promise((r) => setTimeout(r, 300));
  const open = sockets.filter((s) => !s.destroyed && !s.readableEnded).length;
  sockets.forEach((s) => s.destroy());
  expect(open).toBeLessThanOrEqual(5);
  const report = await proxy.stop();
  await hostile.stop();
  const out = join(dir, 'symlinked');
  mkdirSync(out);
  const victim = join(dir, 'victim.txt');
  writeFileSync(victim, 'keep me');
  symlinkSync(victim, join(out, 'proxy.json'));
  symlinkSync(victim, join(out, 'proxy.html'));
  writeReport(out, report);
  expect(readFileSync(victim, 'utf8')).toBe('keep me');
  expect(lstatSync(join(out, 'proxy.json')).isFile()).toBe(true);
  expect(JSON.parse(readFileSync(join(out, 'proxy.json'), 'utf8'))).toMatchObject({ exchanges: 0 });
});
