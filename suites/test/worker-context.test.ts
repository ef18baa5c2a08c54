/**
 * The worker's request context (suites/fixtures.ts `requestContext`): every test of a worker sends through
 * one APIRequestContext, yet a test starts as with a context of its own — no cookie of an earlier test.
 * A tiny run (suites/test/worker-context/: two tests, one worker) against a server that sets a cookie on
 * every answer and echoes the Cookie header it received.
 */
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';

interface JsonResult { status: string; workerIndex: number; errors: Array<{ message?: string }> }
interface JsonSuite { specs?: Array<{ title: string; tests: Array<{ results: JsonResult[] }> }>; suites?: JsonSuite[] }

test.setTimeout(120_000);

test("one request context per worker: a test's cookies do not reach the next test", async () => {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=1; Path=/' });
    res.end(JSON.stringify({ cookie: req.headers.cookie ?? null }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const dir = mkdtempSync(join(tmpdir(), 'worker-context-'));
    const env = {
      ...process.env, CI: '', FORCE_COLOR: '0', PLAYWRIGHT_JSON_OUTPUT_FILE: join(dir, 'report.json'),
      TARGET_PROFILE: resolve(ROOT, 'fixtures/targets/mock.json'), TARGET_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    };
    const child = spawn(process.execPath, [resolve(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', resolve(ROOT, 'suites/test/worker-context/worker-context.config.ts'), '--output', join(dir, 'out')], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise<number>((done) => child.on('exit', (c) => done(c ?? -1)));
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { suites: JsonSuite[] };
    const results = new Map<string, JsonResult>();
    const walk = (s: JsonSuite) => {
      for (const spec of s.specs ?? []) results.set(spec.title, spec.tests[0]!.results[0]!);
      for (const c of s.suites ?? []) walk(c);
    };
    report.suites.forEach(walk);
    const first = results.get('a test sends back the cookies it was given')!;
    const next = results.get('the next test of the worker starts without them')!;
    expect([first.status, next.status], `${output}\n${JSON.stringify([...results.values()].flatMap((r) => r.errors))}`).toEqual(['passed', 'passed']);
    expect(next.workerIndex, 'both tests ran in the same worker').toBe(first.workerIndex);
    expect(code).toBe(0);
  } finally {
    server.close();
  }
});
