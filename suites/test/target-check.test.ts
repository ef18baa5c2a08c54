/**
 * The run's target check (suites/setup/global-setup.ts `checkTargetAnswers`): any answer at the API
 * base passes, whatever its status; a redirect or no answer stops the run with one line naming it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from '@playwright/test';
import { checkTargetAnswers } from '../setup/global-setup.ts';

/** A server answering every request with `status` (and a Location when it redirects); resolves to its base URL. */
async function serve(status: number, seen: string[] = []): Promise<{ base: string; server: Server }> {
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'} ${req.headers['x-extra'] ?? '-'}`);
    res.writeHead(status, status >= 300 && status < 400 ? { location: 'https://elsewhere.example/v1/meters' } : {}).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

test('any answer passes, a 401 or a 500 included: the tests of those requirements judge it', async () => {
  for (const status of [200, 401, 500]) {
    const seen: string[] = [];
    const { base, server } = await serve(status, seen);
    try {
      await checkTargetAnswers({ baseUrl: `${base}/`, headers: { 'X-Extra': 'yes', Authorization: 'Bearer never-sent' } }, 60_000);
      // One GET of /meters, without credentials, with the profile's other headers.
      expect(seen).toEqual(['GET /v1/meters - yes']);
    } finally {
      server.close();
    }
  }
});

test('a redirect stops the run, naming the status and the base URL to check', async () => {
  const { base, server } = await serve(301);
  try {
    await expect(checkTargetAnswers({ baseUrl: base }, 60_000)).rejects.toThrow(`GET ${base}/meters answered 301, a redirect: check the base URL`);
  } finally {
    server.close();
  }
});

test('no answer stops the run with one line naming the URL', async () => {
  const { base, server } = await serve(200);
  await new Promise((done) => server.close(done));
  const error = await checkTargetAnswers({ baseUrl: base }, 60_000).then(() => undefined, (e: Error) => e);
  expect(error?.message).toMatch(new RegExp(`^the target does not answer at ${base.replace(/[.]/g, '\\.')}/meters: .*ECONNREFUSED`));
  expect(error?.message).not.toContain('\n');
});
