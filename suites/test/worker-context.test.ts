/**
 * The worker's request context (suites/fixtures.ts `requestContext`): every test of a worker sends through
 * one APIRequestContext, yet a test starts as with a context of its own — no cookie of an earlier test.
 * A tiny run (suites/test/worker-context/: two tests, one worker) against a server that sets a cookie on
 * every answer and echoes the Cookie header it received.
 */
import { test, expect } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import { playTinyRun } from './tiny-run.ts';

test.setTimeout(120_000);

test("one request context per worker: a test's cookies do not reach the next test", async () => {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': 'session=1; Path=/' });
    res.end(JSON.stringify({ cookie: req.headers.cookie ?? null }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  try {
    const run = await playTinyRun('suites/test/worker-context/worker-context.config.ts', {
      env: { TARGET_PROFILE: resolve(ROOT, 'fixtures/targets/mock.json'), TARGET_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` },
    });
    const first = run.tests.get('a test sends back the cookies it was given')!.results[0]!;
    const next = run.tests.get('the next test of the worker starts without them')!.results[0]!;
    expect([first.status, next.status], `${run.output}\n${JSON.stringify([first, next].flatMap((r) => r.errors))}`).toEqual(['passed', 'passed']);
    expect(next.workerIndex, 'both tests ran in the same worker').toBe(first.workerIndex);
    expect(run.code).toBe(0);
  } finally {
    server.close();
  }
});
