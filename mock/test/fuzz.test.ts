/**
 * Reliability (README › The mock: bad input never crashes it; Errors): generated malformed requests — random paths and methods, path
 * parameters and query strings (bad percent-encoding too), headers, odd Content-Types, invalid
 * Authorization headers, malformed and huge bodies, bytes node:http cannot parse — sent over raw
 * sockets to `mock/main.ts` in a child process, most with a valid key so they reach the deep layers.
 * Every one is answered in time, never with a 5xx; every error is problem details with the six fields;
 * the process stays up. FC_RUNS requests (default 10,000); the seed is printed, FC_SEED replays it.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { ROOT } from '../../contract/paths.ts';
import { loadOpenApi, loadOperations, type JsonSchema } from '../../contract/openapi.ts';
import { ERRORS_URL } from '../http/problem.ts';

const RUNS = Number(process.env.FC_RUNS ?? 10_000);
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() ^ Math.floor(Math.random() * 0x7fffffff);
/** An answer later than this is a hang. */
const ANSWER_WITHIN_MS = 10_000;
/** Stands for the current valid key in generated headers (keys rotate to stay under the rate limit). */
const KEY = '<key>';
const MIB = 1024 * 1024;

interface Answer { status: number; headers: Record<string, string>; body: string }

/**
 * One raw HTTP/1.1 exchange on a new connection; rejects when no complete answer arrives in time. The
 * answer to HEAD has no body whatever its Content-Length.
 */
function exchange(port: number, request: Buffer, head: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => finish(new Error(`no complete answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      const answer = parseAnswer(Buffer.concat(chunks), head);
      if (answer) resolve(answer);
      else reject(error ?? new Error(`the connection closed without a complete answer: ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`));
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (parseAnswer(Buffer.concat(chunks), head)) finish();
    });
    // The mock may answer (413) and close before the whole body is written: a reset is not a failure.
    socket.on('error', () => finish());
    socket.on('close', () => finish());
    socket.write(request);
  });
}

/** The first final (non-1xx) response in `bytes`, once complete (Content-Length framing). */
function parseAnswer(bytes: Buffer, head: boolean): Answer | undefined {
  let start = 0;
  for (;;) {
    const end = bytes.indexOf('\r\n\r\n', start);
    if (end === -1) return undefined;
    const [statusLine, ...lines] = bytes.subarray(start, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
    if (status >= 100 && status < 200) {
      start = end + 4;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = head ? 0 : Number(headers['content-length'] ?? 0);
    if (bytes.length < end + 4 + length) return undefined;
    return { status, headers, body: bytes.subarray(end + 4, end + 4 + length).toString('utf8') };
  }
}

/** Property names of a request body schema (following $ref and allOf/oneOf/anyOf one level). */
function propertyNames(schema: JsonSchema | undefined): string[] {
  if (!schema || typeof schema === 'boolean') return [];
  const ref = schema.$ref as string | undefined;
  if (ref) return propertyNames(loadOpenApi().components.schemas[ref.split('/').pop()!]);
  const own = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const parts = ['allOf', 'oneOf', 'anyOf'].flatMap((k) => ((schema[k] as JsonSchema[] | undefined) ?? []).flatMap(propertyNames));
  return [...own, ...parts];
}

interface Generated {
  method: string;
  target: string;
  headers: Array<[string, string]>;
  body?: Buffer;
  chunked: boolean;
  host: boolean;
}

/** The arbitrary of malformed (and some well-formed) requests; `ids` are ids the mock knows. */
function requests(ids: string[]): fc.Arbitrary<Generated> {
  const operations = loadOperations();
  const queryNames = [...new Set(operations.flatMap((o) => o.parameters.filter((p) => p.in === 'query').map((p) => p.name)))];
  const bodyFields = [...new Set(operations.flatMap((o) => propertyNames(o.requestBody?.schema)))];
  const encoded = (unit: 'grapheme' | 'binary') => fc.string({ unit, maxLength: 24 }).map(encodeURIComponent);
  const segment = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...ids) },
    { weight: 3, arbitrary: encoded('grapheme') },
    { weight: 1, arbitrary: encoded('binary') },
    { weight: 3, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '%2F', '%ff', 'a%2', '%C0%AF', '%F0%9F%98', '..', '.', '', '9'.repeat(40), 'x'.repeat(3000)) },
    { weight: 1, arbitrary: fc.constantFrom('a"b', '<x>', '{id}', 'a|b', '\\', '^', '`', 'é', '\u0000', '#frag', 'a b') },
  );
  const fill = (template: string, values: string[]) => {
    let i = 0;
    return template.replace(/\{[^}]+\}/g, () => values[i++ % values.length]!);
  };
  const path = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(fc.constantFrom(...operations), fc.array(segment, { minLength: 2, maxLength: 2 })).map(([op, values]) => ({ op, path: `/v1${fill(op.path, values)}` })) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('/v1', '/v1/', '', '/V1', '/v2', '/v1//', '/v1/..', '*', 'http://other.example/v1'), fc.array(segment, { maxLength: 5 })).map(([prefix, parts]) => ({ op: undefined, path: `${prefix}/${parts.join('/')}` })) },
  ).filter(({ path: p }) => !p.startsWith('/__mock'));
  const queryValue = fc.oneof(
    fc.constantFrom('', '0', '-1', '1', '20', '100', '101', '1e3', '1.5', 'asc', 'desc', 'up', 'todo', 'open', 'true', 'null', '%zz', '%', '+', '%E0%A4%A', 'a,b,c', 'asset,location', '9'.repeat(30)),
    fc.constantFrom(...ids),
    encoded('grapheme'),
  );
  const query = fc.oneof(
    { weight: 6, arbitrary: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...queryNames, '__code', '__example', '__dynamic'), encoded('grapheme')), queryValue), { maxLength: 5 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : '')) },
    { weight: 1, arbitrary: fc.constantFrom('?', '?&&', '?=x', '?limit', '?limit=1&limit=2', '?cursor=eyJ9.abc', '?cursor=%') },
  );
  const authorization = fc.oneof(
    { weight: 14, arbitrary: fc.constant(`Bearer ${KEY}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.constantFrom('Basic Zm9vOmJhcg==', 'Bearer', 'Bearer ', `bearer ${KEY}`, `Bearer  ${KEY}`, `Bearer ${KEY} extra`, 'Bearer sk_live_short', `Bearer sk_prod_${'a'.repeat(32)}`, `Bearer sk_live_${'a'.repeat(32)}`, `Bearer sk_test_${'b'.repeat(70)}`, `Bearer sk_live_${'é'.repeat(30)}`, 'Token abc') },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, '')) },
  );
  const contentType = fc.option(fc.oneof(
    { weight: 6, arbitrary: fc.constant('application/json') },
    { weight: 3, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/merge-patch+json', 'APPLICATION/JSON', 'application/json;', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream', 'image/png', '', ';;;', 'application/json; charset=utf-16') },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, '')) },
  ), { freq: 4 });
  const header = (name: fc.Arbitrary<string>, value: fc.Arbitrary<string>) => fc.tuple(name, value);
  const otherHeaders = fc.array(fc.oneof(
    { weight: 4, arbitrary: header(fc.constant('Prefer'), fc.constantFrom('code=200', 'code=201', 'code=400', 'code=404', 'code=418', 'code=abc', 'example=nope', 'dynamic=true', 'dynamic=true, seed=3', 'return=minimal', ';;=')) },
    { weight: 1, arbitrary: header(fc.constant('Expect'), fc.constantFrom('100-continue', 'nonsense')) },
    { weight: 2, arbitrary: header(fc.constant('Accept'), fc.constantFrom('application/xml', '*/*', 'text/html', 'application/problem+json')) },
    { weight: 3, arbitrary: header(fc.constantFrom('X-Request-ID', 'X-Forwarded-For', 'Cookie', 'Origin'), fc.string({ maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ''))) },
    { weight: 3, arbitrary: header(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }), fc.string({ unit: 'grapheme-ascii', maxLength: 30 })) },
    { weight: 1, arbitrary: header(fc.constant('X-Padding'), fc.constantFrom('x'.repeat(8000), 'x'.repeat(20_000))) },
  ), { maxLength: 3 });
  const json = (fields: string[]) => fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 5, arbitrary: fc.dictionary(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }) },
  ).map((v) => JSON.stringify(v));
  const body = (fields: string[]) => fc.oneof(
    { weight: 40, arbitrary: fc.constant(undefined) },
    { weight: 60, arbitrary: json(fields.length ? fields : bodyFields).map((s) => Buffer.from(s)) },
    { weight: 30, arbitrary: fc.oneof(
      fc.constantFrom('{', '{"name": ', '[1,2', '{"a":1,}', "{'a':1}", 'NaN', '{"a":undefined}', 'nul', '"open', '\uFEFF{}', '{"a":"\\x"}', '{}{}', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}'),
      fc.string({ unit: 'binary', maxLength: 200 }),
    ).map((s) => Buffer.from(s)) },
    { weight: 4, arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`)) },
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)) },
    { weight: 1, arbitrary: fc.constantFrom(MIB + 1, 2 * MIB).map((n) => Buffer.alloc(n, 0x61)) },
  );
  const methods = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE');
  const oddMethods = fc.constantFrom('get', 'FOO', 'PROPFIND', 'CONNECT', 'M-SEARCH', 'PURGE');
  return path.chain(({ op, path: p }) => fc.record({
    method: fc.oneof({ weight: 12, arbitrary: fc.constant(op?.method.toUpperCase() ?? 'GET') }, { weight: 4, arbitrary: methods }, { weight: 1, arbitrary: oddMethods }),
    target: query.map((q) => `${p}${q}`),
    authorization,
    contentType,
    otherHeaders,
    body: body(propertyNames(op?.requestBody?.schema)),
    chunked: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    host: fc.oneof({ weight: 30, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  })).map((r) => ({
    method: r.method,
    target: r.target,
    headers: [
      ...(r.authorization !== undefined ? [['Authorization', r.authorization] as [string, string]] : []),
      ...(r.contentType !== null ? [['Content-Type', r.contentType] as [string, string]] : []),
      ...r.otherHeaders,
    ],
    body: r.body,
    chunked: r.chunked,
    host: r.host,
  }));
}

/** The bytes of a generated request, with `key` for the valid key and correct framing. */
function encode(r: Generated, port: number, key: string): Buffer {
  const lines = [`${r.method} ${r.target} HTTP/1.1`];
  if (r.host) lines.push(`Host: 127.0.0.1:${port}`);
  for (const [name, value] of r.headers) lines.push(`${name}: ${value.split(KEY).join(key)}`);
  let body = r.body ?? Buffer.alloc(0);
  if (r.body && r.chunked) {
    lines.push('Transfer-Encoding: chunked');
    body = Buffer.concat([Buffer.from(`${r.body.length.toString(16)}\r\n`), r.body, Buffer.from('\r\n0\r\n\r\n')]);
  } else if (r.body) lines.push(`Content-Length: ${r.body.length}`);
  lines.push('Connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n')), body]);
}

/** Whether a request asked Prism for its answer (an example's request_id is not the header's). */
function asksPrism(r: Generated): boolean {
  return r.headers.some(([name, value]) => name === 'Prefer' && /(?:^|[,;\s])(code|example|dynamic|seed)=/.test(value)) || /[?&]__(code|example|dynamic)=/.test(r.target);
}

function check(holds: boolean, what: string, where: string): void {
  if (!holds) throw new Error(`expected ${what}: ${where}`);
}

interface Mock { child: ChildProcess; port: number; stderr: () => string; exited: Promise<number | null> }

async function spawnMock(): Promise<Mock> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/main.ts', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const mint = async () => ((await (await fetch(`${base}/__mock/keys`, { method: 'POST', body: JSON.stringify({ orgId: 'org_acme' }) })).json()) as { secret: string }).secret;
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
    fc.asyncProperty(requests(ids), async (r) => {
      // Stay under the rate limit (1,000 a minute per key): a fresh key every 900 requests.
      if (++uses > 900) {
        key = await mint();
        uses = 1;
      }
      const answer = await exchange(mock.port, encode(r, mock.port, key), r.method === 'HEAD').catch((error: Error) => {
        throw new Error(`${error.message}: ${r.method} ${r.target.slice(0, 200)} ${JSON.stringify(r.headers)} ${r.body?.length ?? 'no'} body bytes`);
      });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
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
  expect((await fetch(`${base}/__mock/health`)).status).toBe(200);
  expect(mock.stderr(), 'the mock logged no unexpected error').not.toContain('unexpected error');
  // Most requests carry a valid key and reach routing, validation and the handlers, or the property proves little.
  if (RUNS >= 1000) {
    expect(statuses.get(401) ?? 0).toBeLessThan(RUNS / 4);
    for (const status of [200, 400, 404, 405]) expect(statuses.get(status), `some requests answered ${status}`).toBeGreaterThan(0);
  }
});
