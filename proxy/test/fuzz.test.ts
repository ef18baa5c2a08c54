/**
 * Generated malformed requests (the mock's fuzz generator, mock/test/fuzz-requests.ts) sent to one mock
 * directly and to an identical mock (same seed) through the proxy: the proxy never crashes or hangs,
 * and every answer has the direct answer's status and body (request ids, created ids and times
 * masked; bodies Prism invents at random compared by status only). One documented exception: a request
 * within REFRAMING_BYTES of the mock's header limit may get 431 through the proxy alone, since node:http
 * frames the forwarded request itself (docs/integrators.md, "The validation proxy"). FC_RUNS requests
 * (default 2,000); FC_SEED replays a run.
 */
import { maxHeaderSize } from 'node:http';
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { controlFetch } from '../../mock/test/support.ts';
import { asksPrism, encode, exchange, requests } from '../../mock/test/fuzz-requests.ts';
import { REFRAMING_BYTES } from '../forward.ts';
import { startProxy, type RunningProxy } from '../start.ts';
import { masked } from './support.ts';

const RUNS = Number(process.env.FC_RUNS ?? 2_000);
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() ^ Math.floor(Math.random() * 0x7fffffff);

let direct: RunningMock;
let behind: RunningMock;
let proxy: RunningProxy;
test.beforeAll(async () => {
  direct = await startMock({ port: 0, publicUrl: 'http://mms.test' });
  behind = await startMock({ port: 0, publicUrl: 'http://mms.test' });
  proxy = await startProxy({ upstream: behind.baseUrl, port: 0 });
});
test.afterAll(async () => {
  await proxy.stop();
  await direct.stop();
  await behind.stop();
});

/** Bytes of a request's head (request line and headers, up to the blank line). */
const headBytes = (raw: Buffer): number => raw.indexOf('\r\n\r\n');
/** Whether the proxy's own framing can have carried this request past the mock's header limit. */
const atHeaderLimit = (raw: Buffer): boolean => headBytes(raw) + REFRAMING_BYTES > maxHeaderSize;

const mint = async (m: RunningMock) => ((await (await controlFetch(m, '/__mock/keys', { method: 'POST', body: JSON.stringify({ orgId: 'org_acme' }) })).json()) as { secret: string }).secret;

test('generated malformed requests: through the proxy as directly, no crash, no hang', async () => {
  test.setTimeout(10 * 60_000);
  process.stdout.write(`proxy fuzz: fast-check seed=${SEED} runs=${RUNS} — reproduce: FC_SEED=${SEED} FC_RUNS=${RUNS}\n`);
  let keys = [await mint(direct), await mint(behind)];
  let uses = 0;
  const ids: string[] = [];
  for (const list of ['/v1/meters?limit=3', '/v1/work-orders?limit=3', '/v1/assets?limit=3']) {
    const r = await fetch(`${direct.baseUrl}${list.slice(3)}`, { headers: { authorization: `Bearer ${keys[0]}` } });
    ids.push(...((await r.json()) as { data: Array<{ id: string }> }).data.map((d) => d.id));
  }
  const directPort = Number(new URL(direct.url).port);
  let compared = 0;
  let reframed = 0;
  await fc.assert(
    fc.asyncProperty(requests(ids), async (r) => {
      if (++uses > 900) {
        keys = [await mint(direct), await mint(behind)];
        uses = 1;
      }
      const head = r.method === 'HEAD';
      // The same Host for both: absolute URLs in the answers (nextPageUrl) then agree.
      const sent = encode(r, directPort, keys[0]!);
      const a = await exchange(directPort, sent, head);
      const b = await exchange(proxy.port, encode(r, directPort, keys[1]!), head).catch((e: Error) => {
        throw new Error(`through the proxy: ${e.message}: ${r.method} ${r.target.slice(0, 200)}`);
      });
      const where = `${r.method} ${r.target.slice(0, 200)} ${JSON.stringify(r.headers).slice(0, 300)}`;
      if (b.status === 431 && a.status !== 431 && atHeaderLimit(sent)) {
        reframed++;
        return;
      }
      if (b.status !== a.status) throw new Error(`status ${b.status} through the proxy, ${a.status} directly: ${where}`);
      if (!asksPrism(r)) {
        compared++;
        if (masked(b.body) !== masked(a.body)) throw new Error(`bodies differ: ${where}\n direct ${a.body.slice(0, 300)}\n proxied ${b.body.slice(0, 300)}`);
      }
    }),
    { seed: SEED, numRuns: RUNS },
  );
  await proxy.settled();
  expect(compared).toBeGreaterThan(RUNS / 2);
  expect(reframed, 'requests at the header limit, refused through the proxy alone').toBeLessThan(RUNS / 100);
  // Still up: a plain request is forwarded and judged.
  const after = await fetch(`${proxy.url}/v1/meters?limit=1`, { headers: { authorization: `Bearer ${keys[1]}` }, signal: AbortSignal.timeout(5000) });
  expect(after.status).toBe(200);
  await proxy.settled();
  expect(proxy.ledger.exchanges + proxy.ledger.relayed).toBeGreaterThanOrEqual(RUNS);
});

test('at the header limit the proxy adds at most REFRAMING_BYTES: every head size around the limit, through the proxy and directly', async () => {
  const keys = [await mint(direct), await mint(behind)];
  const directPort = Number(new URL(direct.url).port);
  for (const method of ['PROPFIND', 'GET']) {
    const padded = (key: string, padding: number) => encode({ method, target: '/v1/meters', headers: [['Authorization', `Bearer ${key}`], ['X-Padding', 'x'.repeat(padding)]], chunked: false, host: true }, directPort, key);
    const bare = headBytes(padded(keys[0]!, 0));
    const differed: number[] = [];
    let refusedDirectly = Infinity;
    for (let size = maxHeaderSize - 100; size <= maxHeaderSize + 100; size++) {
      const a = await exchange(directPort, padded(keys[0]!, size - bare), false);
      const b = await exchange(proxy.port, padded(keys[1]!, size - bare), false);
      if (a.status === 431) refusedDirectly = Math.min(refusedDirectly, size);
      if (a.status !== b.status) {
        expect([a.status, b.status], `${method}, a head of ${size} bytes`).toEqual([a.status, 431]);
        differed.push(size);
      }
    }
    // Refused through the proxy alone: the sizes just below the direct limit, no more of them than the bytes the proxy adds.
    expect(differed.length, method).toBeGreaterThan(0);
    expect(differed.length, method).toBeLessThanOrEqual(REFRAMING_BYTES);
    expect(differed, method).toEqual(differed.map((_, k) => refusedDirectly - differed.length + k));
    expect(differed.every((size) => size + REFRAMING_BYTES > maxHeaderSize), method).toBe(true);
  }
});
