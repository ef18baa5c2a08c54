/**
 * HTTP edges of the mock (docs/integrators.md, "Reliability"): prototype-named lookups, repeated singleton headers
 * (RFC 9112 §3.2), absolute URLs from the public origin (never the Host header), server limits, strict
 * UTF-8, validated `Prefer` bodies, Prism preloaded in a thread of its own, a client abort logged as
 * nothing, and no plaintext secret kept by authentication (Authentication 4: one-way hashes only).
 */
import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { getHeapSnapshot } from 'node:v8';
import { authenticate } from '../pipeline/authenticate.ts';
import { startMock, type RunningMock } from '../server.ts';

let mock: RunningMock;
let key: string;
test.beforeAll(async () => {
  mock = await startMock({ port: 0, publicUrl: 'https://mms.example.test' });
  key = (mock.profile.keys as { live: string[] }).live[0]!;
});
test.afterAll(() => mock.stop());

/** A raw HTTP/1.1 exchange: the status and body of the answer to `head` + `body`. */
function exchange(head: string, body: Buffer | string = ''): Promise<{ status: number; text: string }> {
  return new Promise((done, fail) => {
    const socket = connect(Number(new URL(mock.url).port), '127.0.0.1');
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('end', () => done({ status: Number(text.slice(9, 12)), text }));
    socket.on('error', fail);
    socket.write(`${head}Connection: close\r\n\r\n`);
    socket.write(body);
  });
}

const auth = () => `Authorization: Bearer ${key}\r\n`;

test('Content-Type __proto__ or constructor on a thumbnail is 415, never a 500 or a stored non-image', async () => {
  const id = mock.profile.fixtures.pendingWorkRequestIds as string[];
  for (const type of ['__proto__', 'constructor', 'toString']) {
    const r = await exchange(`PUT /v1/workrequests/${id[0]}/thumbnail?fileName=x.png HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Content-Type: ${type}\r\nContent-Length: 5\r\n`, 'hello');
    expect(r.status, type).toBe(415);
  }
});

test('two Host or two Authorization headers are 400', async () => {
  expect((await exchange(`GET /v1/meters HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: attacker.example\r\n${auth()}`)).status).toBe(400);
  const two = await exchange(`GET /v1/meters HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Authorization: Bearer sk_live_${'x'.repeat(30)}\r\n`);
  expect(two.status).toBe(400);
  expect(two.text).toContain('Authorization');
});

test('nextPageUrl is built from the public URL, not from the Host header', async () => {
  const r = await exchange(`GET /v1/workrequests?limit=1 HTTP/1.1\r\nHost: attacker.example\r\n${auth()}`);
  expect(r.status).toBe(200);
  const body = JSON.parse(r.text.slice(r.text.indexOf('\r\n\r\n') + 4)) as { nextPageUrl: string };
  expect(body.nextPageUrl.startsWith('https://mms.example.test/v1/workrequests?')).toBe(true);
});

test('the server bounds slow requests and connections', () => {
  expect(mock.server.requestTimeout).toBe(30_000);
  expect(mock.server.headersTimeout).toBe(10_000);
  expect(mock.server.maxConnections).toBe(512);
});

test('invalid UTF-8 inside a JSON body is 400, not stored as U+FFFD', async () => {
  const body = Buffer.concat([Buffer.from('{"name":"bad '), Buffer.from([0xc3, 0x28]), Buffer.from('","meter_type":"counter","unit":"h"}')]);
  const r = await exchange(`POST /v1/meters HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n`, body);
  expect(r.status).toBe(400);
  expect(r.text).toContain('UTF-8');
});

test('a Prefer request is validated like any other: a deep or invalid body is 400', async () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const r = await exchange(`POST /v1/work-orders HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Prefer: code=201\r\nContent-Type: application/json\r\nContent-Length: ${deep.length}\r\n`, deep);
  expect(r.status).toBe(400);
  expect(r.text).toContain('validation_error');
});

test('Prism is loaded in the background right after start', async () => {
  expect(mock.prismLoaded).toBeInstanceOf(Promise);
  await mock.prismLoaded;
});

test("Prism answers from a thread of its own: @stoplight/prism-http never enters the mock's heap", async () => {
  await mock.prismLoaded;
  const res = await fetch(`${mock.baseUrl}/meters`, { headers: { Authorization: `Bearer ${key}`, Prefer: 'code=200' } });
  expect(res.status).toBe(200);
  const loadedHere = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('@stoplight/prism-http'));
  expect(loadedHere).toEqual([]);
});

test('without the preload (preloadPrism: false) Prism loads for the first Prefer request, which it answers', async () => {
  const lazy = await startMock({ port: 0, preloadPrism: false });
  try {
    const lazyKey = (lazy.profile.keys as { live: string[] }).live[0]!;
    const res = await fetch(`${lazy.baseUrl}/meters`, { headers: { Authorization: `Bearer ${lazyKey}`, Prefer: 'code=200' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/json/);
    await lazy.prismLoaded;
  } finally {
    await lazy.stop();
  }
});

test('a client that disconnects mid-body is no error in the log', async () => {
  const writes: string[] = [];
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => (writes.push(String(chunk)), (original as (...a: unknown[]) => boolean)(chunk, ...rest))) as typeof process.stderr.write;
  try {
    const closed = new Promise<void>((done) => mock.server.once('request', (_req, res) => res.once('close', () => setImmediate(done))));
    const socket = connect(Number(new URL(mock.url).port), '127.0.0.1');
    socket.write(`POST /v1/meters HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`);
    await new Promise((done) => setTimeout(done, 200));
    socket.destroy();
    await closed;
    await new Promise((done) => setImmediate(done));
  } finally {
    process.stderr.write = original;
  }
  expect(writes.join('')).not.toContain('unexpected error');
});

/** Whether the heap (after the garbage collection a snapshot makes) holds the bytes `needle` (a Buffer: off the heap itself). */
async function heapHolds(needle: Buffer): Promise<boolean> {
  let tail = Buffer.alloc(0);
  for await (const chunk of getHeapSnapshot()) {
    const bytes = Buffer.concat([tail, chunk as Buffer]);
    if (bytes.includes(needle)) return true;
    tail = bytes.subarray(-needle.length);
  }
  return false;
}

test('authentication keeps no presented secret in plaintext, wrong guesses included', async () => {
  test.setTimeout(120_000);
  const marker = randomBytes(12);
  // The guess exists as a string only inside this call; the test keeps its bytes in a Buffer.
  (() => {
    try {
      authenticate(`Bearer sk_live_${marker.toString('hex')}Guess`, mock.app.world, Date.now());
    } catch {
      // a 401: expected
    }
  })();
  /y/.test('y'); // V8 keeps the last successful RegExp input (legacy RegExp.input) process-wide: move it off the guess
  expect(await heapHolds(Buffer.concat([Buffer.from(marker.toString('hex')), Buffer.from('Guess')]))).toBe(false);
});

test('a Prefer request whose Accept is no media range list (__proto__, constructor) is 400 naming Accept, never a 500 or a hang', async () => {
  for (const accept of ['__proto__', 'constructor', 'toString']) {
    const r = await exchange(`GET /v1/meters HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Prefer: code=200\r\nAccept: ${accept}\r\n`);
    expect(r.status, accept).toBe(400);
    expect(r.text).toContain('Accept');
  }
  const ok = await exchange(`GET /v1/meters HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Prefer: code=200\r\nAccept: text/html, */*;q=0.8\r\n`);
  expect(ok.status).toBe(200);
});
