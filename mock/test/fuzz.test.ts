/**
 * Reliability (docs/integrators.md: bad input never crashes it; Errors): generated malformed requests — random paths and methods, path
 * parameters and query strings (bad percent-encoding too), headers, odd Content-Types, invalid
 * Authorization headers, malformed and huge bodies, bytes node:http cannot parse — sent over raw
 * sockets to `mock/main.ts` in a child process, most with a valid key so they reach the deep layers;
 * prototype-named header values (`__proto__`, `constructor`, ... as Content-Type, Prefer, Accept);
 * requests abandoned mid-send; control-API requests with and without the token. Every one is answered
 * in time, never with a 5xx; every error is problem details with the six fields; the process stays up
 * and logs no unexpected error; afterwards a `__proto__` key reads back as an own key and no object
 * was polluted. FC_RUNS requests (default 10,000); the seed is printed, FC_SEED replays it.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from '../../contract/paths.ts';
import { ERRORS_URL } from '../http/problem.ts';
import { abortedSend, asksPrism, controlRequests, encode, exchange, requests } from './fuzz-requests.ts';

const TOKEN = 'fuzz-test-control-token-0123456789';
const control = { 'x-mock-control-token': TOKEN, 'content-type': 'application/json' };
const RUNS = Number(process.env.FC_RUNS ?? 10_000);
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() ^ Math.floor(Math.random() * 0x7fffffff);

function check(holds: boolean, what: string, where: string): void {
  if (!holds) throw new Error(`expected ${what}: ${where}`);
}

interface Mock { child: ChildProcess; port: number; stderr: () => string; exited: Promise<number | null> }

async function spawnMock(): Promise<Mock> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/main.ts', '--port', '0', '--control-token', TOKEN], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const port = await new Promise<number>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /API base\s+http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(out);
      if (m) done(Number(m[1]));
    });
    child.once('exit', (code) => fail(new Error(`the mock exited with ${code}: ${stderr}`)));
  });
  return { child, port, stderr: () => stderr, exited };
}

let mock: Mock;
test.beforeAll(async () => {
  mock = await spawnMock();
});
test.afterAll(async () => {
  mock.child.kill('SIGINT');
  await mock.exited;
});

test('generated malformed requests get no 5xx, no hang, only problem details; the mock stays up', async () => {
  test.setTimeout(10 * 60_000);
  const line = `fuzz: fast-check seed=${SEED} runs=${RUNS} — reproduce: FC_SEED=${SEED} FC_RUNS=${RUNS} npx playwright test -c playwright.unit.config.ts mock/test/fuzz.test.ts`;
  test.info().annotations.push({ type: 'fast-check', description: line });
  process.stdout.write(`${line}\n`);

  const base = `http://127.0.0.1:${mock.port}`;
  const mint = async () => ((await (await fetch(`${base}/__mock/keys`, { method: 'POST', headers: control, body: JSON.stringify({ orgId: 'org_acme' }) })).json()) as { secret: string }).secret;
  let key = await mint();
  let uses = 0;
  const ids: string[] = [];
  for (const list of ['/v1/meters?limit=3', '/v1/work-orders?limit=3', '/v1/assets?limit=3']) {
    const r = await fetch(`${base}${list}`, { headers: { authorization: `Bearer ${key}` } });
    ids.push(...((await r.json()) as { data: Array<{ id: string }> }).data.map((d) => d.id));
  }
  uses += 3;
  const statuses = new Map<number, number>();

  await fc.assert(
    fc.asyncProperty(fc.oneof({ weight: 9, arbitrary: requests(ids) }, { weight: 1, arbitrary: controlRequests() }), async (r) => {
      // Stay under the rate limit (1,000 a minute per key): a fresh key every 900 requests.
      if (++uses > 900) {
        key = await mint();
        uses = 1;
      }
      if (r.abort) {
        await abortedSend(mock.port, encode(r, mock.port, key, TOKEN));
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
        return;
      }
      const answer = await exchange(mock.port, encode(r, mock.port, key, TOKEN), r.method === 'HEAD').catch((error: Error) => {
        throw new Error(`${error.message}: ${r.method} ${r.target.slice(0, 200)} ${JSON.stringify(r.headers)} ${r.body?.length ?? 'no'} body bytes`);
      });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      // A reset forgets minted keys: mint another.
      if (r.target === '/__mock/reset' && answer.status === 200) {
        key = await mint();
        uses = 0;
      }
      const where = `${r.method} ${r.target.slice(0, 200)} → ${answer.status} ${answer.body.slice(0, 300)}`;
      // Plain checks: Playwright's expect records a step per call, too slow for 10,000 runs.
      check(answer.status < 500, 'a status below 500', where);
      check(/^\S+$/.test(answer.headers['x-request-id'] ?? ''), 'an X-Request-ID header', where);
      if (answer.status < 400) return;
      check(answer.headers['content-type'] === 'application/problem+json', 'Content-Type application/problem+json', where);
      if (r.method === 'HEAD') return;
      const problem = JSON.parse(answer.body) as Record<string, unknown>;
      for (const field of ['type', 'title', 'detail', 'request_id', 'code']) check(typeof problem[field] === 'string', `a string ${field}`, where);
      check(problem.status === answer.status, 'status equal to the HTTP status', where);
      if (!asksPrism(r)) {
        check(problem.request_id === answer.headers['x-request-id'], 'request_id equal to X-Request-ID', where);
        check(problem.type === `${ERRORS_URL}/${problem.code}`, 'type {errors_url}/<code>', where);
      }
    }),
    { seed: SEED, numRuns: RUNS },
  );

  process.stdout.write(`fuzz: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}\n`);
  expect(mock.child.exitCode, 'the mock process is still running').toBeNull();
  expect((await fetch(`${base}/__mock/health`, { headers: control })).status).toBe(200);
  expect((await fetch(`${base}/__mock/health`)).status, 'the control API without its token').toBe(401);
  // State after `__proto__` bodies: a custom field labelled __proto__ reads back as an own key, and no
  // record grew a member from a polluted prototype.
  const auth = { authorization: `Bearer ${await mint()}`, 'content-type': 'application/json' };
  await fetch(`${base}/v1/work-orders`, { method: 'POST', headers: auth, body: '{"__proto__":{"polluted":1},"title":"proto"}' });
  const created = await fetch(`${base}/v1/customfields/assets`, { method: 'POST', headers: auth, body: '{"fields":[{"label":"__proto__","type":"text"}]}' });
  expect([200, 409], 'a custom field labelled __proto__').toContain(created.status);
  const listed = JSON.parse(await (await fetch(`${base}/v1/customfields/assets`, { headers: auth })).text()) as unknown[];
  expect(JSON.stringify(listed)).toContain('"label":"__proto__"');
  const page = await (await fetch(`${base}/v1/work-orders?limit=100`, { headers: auth })).text();
  expect(page, 'no prototype pollution').not.toContain('polluted');
  expect(mock.stderr(), 'the mock logged no unexpected error').not.toContain('unexpected error');
  // Most requests carry a valid key and reach routing, validation and the handlers, or the property proves little.
  if (RUNS >= 1000) {
    expect(statuses.get(401) ?? 0).toBeLessThan(RUNS / 4);
    for (const status of [200, 400, 404, 405]) expect(statuses.get(status), `some requests answered ${status}`).toBeGreaterThan(0);
  }
});
