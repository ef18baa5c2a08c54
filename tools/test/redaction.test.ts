/**
 * No secrets anywhere (docs/vendors.md, "Reading a report": no secret in any output): a run with known keys writes no key
 * of the profile, unredacted, into any file (archives opened: the HTML report's embedded zip, blobs,
 * traces), any console line, or the temp dir it ran with. One run per way a target can fail a keyed
 * request, so failures carry evidence and Playwright its own error messages and call logs:
 * - 503: the mock answers 503 on /meters/{id};
 * - hang: the request times out (Playwright's timeout call log lists the authorization header);
 * - reset: the connection is reset;
 * - garbage: the answer is not HTTP.
 * The last three are a node:net server on port 0 that answers unkeyed requests 401 (the run's target check, suites/setup/global-setup.ts).
 * Each run's reports also carry a curl reproduction naming keys by variable, and exchanges.har.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { ROOT } from '../../contract/paths.ts';
import { profileSecrets } from '../../suites/lib/redact.ts';
import { outputTexts } from './output-files.ts';

type Behaviour = 'hang' | 'reset' | 'garbage';

const UNAUTHORIZED = JSON.stringify({ type: 'https://errors.example/unauthorized', title: 'Unauthorized', status: 401, code: 'unauthorized', detail: 'no key', request_id: 'req-1' });

/** A target that answers unkeyed requests 401 and keyed ones with `behaviour`. */
async function brokenTarget(behaviour: Behaviour): Promise<{ server: Server; baseUrl: string }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (let end = buffer.indexOf('\r\n\r\n'); end >= 0; end = buffer.indexOf('\r\n\r\n')) {
        const head = buffer.slice(0, end);
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length < end + 4 + length) return;
        buffer = buffer.slice(end + 4 + length);
        if (!/\r\nauthorization:/i.test(head)) {
          socket.write(`HTTP/1.1 401 Unauthorized\r\ncontent-type: application/problem+json\r\nx-request-id: req-${Math.random()}\r\ncontent-length: ${UNAUTHORIZED.length}\r\n\r\n${UNAUTHORIZED}`);
          continue;
        }
        if (behaviour === 'reset') return void socket.resetAndDestroy();
        if (behaviour === 'garbage') return void socket.end('\u0000\u0001garbage, not HTTP\r\n\r\n');
        return; // hang: never answer
      }
    });
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return { server, baseUrl: `http://127.0.0.1:${port}/v1` };
}

let mock: RunningMock;
test.beforeAll(async () => {
  mock = await startMock({ port: 0 });
  mock.app.faults.set({ errorRate: 1, errorStatus: 503, pathPattern: '^/v1/meters/[^/]+$' });
});
test.afterAll(async () => mock.stop());

for (const behaviour of ['503', 'hang', 'reset', 'garbage'] as const) {
  test(`a run against a target that ${behaviour === '503' ? 'answers 503' : behaviour === 'garbage' ? 'answers garbage' : `${behaviour}s`} on keyed requests leaves no key in any output`, async () => {
    test.setTimeout(240_000);
    const broken = behaviour === '503' ? undefined : await brokenTarget(behaviour);
    const dir = mkdtempSync(join(tmpdir(), 'redaction-'));
    const tmp = join(dir, 'tmp');
    try {
      const profile = join(dir, 'profile.json');
      writeFileSync(profile, JSON.stringify({ ...mock.profile, baseUrl: broken?.baseUrl ?? mock.baseUrl }));
      const output = join(dir, 'out');
      mkdirSync(tmp);
      // Asynchronous: the targets answer from this process while the run goes. Short timeouts: a hanging request fails in 3 s.
      const run = await new Promise<{ status: number; stdout: string; stderr: string }>((done) => {
        const child = spawn(process.execPath, [resolve(ROOT, 'bin/mms-conformance.mjs'), 'run', '--profile', profile, '--grep', '@METER-007', '--output', output, '--workers', '2', '--no-profile-check'],
          { cwd: ROOT, env: { ...process.env, CI: '1', TMPDIR: tmp, MMS_TEST_TIMEOUT: '6000' } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('exit', (code) => done({ status: code ?? 1, stdout, stderr }));
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(1);
      const secrets = profileSecrets(mock.profile as never);
      expect(secrets.length).toBeGreaterThan(20);
      const texts = [{ name: 'stdout', text: run.stdout }, { name: 'stderr', text: run.stderr }, ...outputTexts(output), ...(readdirSync(tmp).length ? outputTexts(tmp) : [])];
      const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t.text, 'latin1'), 0);
      console.log(`${behaviour}: scanned ${texts.length} files (archive entries included), ${bytes} bytes, for ${secrets.length} keys`);
      expect(texts.some((t) => t.name.includes('playwrightReportBase64')), 'the Playwright HTML report was searched').toBe(true);
      expect(texts.some((t) => t.name.endsWith('error-context.md')), 'error-context.md was searched').toBe(true);
      expect(texts.some((t) => /sk_live_\*\*\*\*[A-Za-z0-9]{4}/.test(t.text)), 'redacted keys appear in the evidence').toBe(true);
      const leaks = texts.flatMap((t) => secrets.filter((s) => t.text.includes(s)).map((s) => `${t.name} contains ${s.slice(0, 12)}…`));
      expect(leaks).toEqual([]);
      // The run's temp folders (MMS_RUN_DIR, the CLI's scratch) are gone.
      expect(readdirSync(tmp).filter((e) => /^mms-/.test(e))).toEqual([]);
      // Reproductions: the failing exchange as curl, keys by variable; the evidence as HAR.
      const markdown = readFileSync(join(output, 'conformance.md'), 'utf8');
      const html = readFileSync(join(output, 'conformance.html'), 'utf8');
      expect(markdown).toContain('-H "Authorization: Bearer $MMS_KEY_LIVE"');
      expect(html).toContain('-H &quot;Authorization: Bearer $MMS_KEY_LIVE&quot;');
      const har = JSON.parse(readFileSync(join(output, 'exchanges.har'), 'utf8'));
      expect(har.log.entries.length).toBeGreaterThan(0);
      expect(har.log.entries.some((e: { request: { headers: Array<{ name: string; value: string }> } }) => e.request.headers.some((h) => h.name === 'authorization' && /^Bearer sk_live_\*{4}/.test(h.value)))).toBe(true);
      if (behaviour !== '503') expect(har.log.entries.some((e: { response: { status: number } }) => e.response.status === 0)).toBe(true);
    } finally {
      await new Promise((done) => (broken ? broken.server.close(done) : done(undefined)));
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
