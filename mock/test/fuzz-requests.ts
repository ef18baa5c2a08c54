/**
 * The generator of the mock's fuzz test (mock/test/fuzz.test.ts), shared with the validating proxy's
 * tests: malformed (and some well-formed) raw HTTP/1.1 requests, their bytes, and a raw-socket exchange.
 */
import fc from 'fast-check';
import { connect } from 'node:net';
import { loadOpenApi, loadOperations, type JsonSchema } from '../../contract/openapi.ts';

/** An answer later than this is a hang. */
export const ANSWER_WITHIN_MS = 10_000;
/** Stands for the current valid key in generated headers (keys rotate to stay under the rate limit). */
export const KEY = '<key>';
/** Stands for the mock's control token in generated headers. */
export const CONTROL = '<control-token>';
/** Values named like Object.prototype members: a plain-object lookup keyed by them misbehaves. */
export const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
export const MIB = 1024 * 1024;

export interface Answer { status: number; headers: Record<string, string>; body: string }

/**
 * One raw HTTP/1.1 exchange on a new connection; rejects when no complete answer arrives in time. The
 * answer to HEAD has no body whatever its Content-Length.
 */
export function exchange(port: number, request: Buffer, head: boolean): Promise<Answer> {
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
export function parseAnswer(bytes: Buffer, head: boolean): Answer | undefined {
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
export function propertyNames(schema: JsonSchema | undefined): string[] {
  if (!schema || typeof schema === 'boolean') return [];
  const ref = schema.$ref as string | undefined;
  if (ref) return propertyNames(loadOpenApi().components.schemas[ref.split('/').pop()!]);
  const own = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const parts = ['allOf', 'oneOf', 'anyOf'].flatMap((k) => ((schema[k] as JsonSchema[] | undefined) ?? []).flatMap(propertyNames));
  return [...own, ...parts];
}

export interface Generated {
  method: string;
  target: string;
  headers: Array<[string, string]>;
  body?: Buffer;
  chunked: boolean;
  host: boolean;
  /** Send part of the request, then disconnect (no answer expected). */
  abort?: boolean;
}

/** Sends the first half of `request` and disconnects; resolves once the socket is closed. */
export function abortedSend(port: number, request: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(request.subarray(0, Math.max(1, request.length >> 1)), () => socket.destroy());
    });
    socket.on('error', () => {}).on('close', () => resolve());
  });
}

/**
 * Control-API requests (`/__mock/...`): with the token (CONTROL), a wrong one or none; bodies that
 * must be refused (unbounded numbers, unknown fields, bad shapes) and harmless valid ones. Never a
 * valid fault configuration: injected 5xx answers would be the point of those.
 */
export function controlRequests(): fc.Arbitrary<Generated> {
  const path = fc.constantFrom('health', 'profile', 'reset', 'clock', 'clock/advance', 'orgs', 'orgs/org_acme', 'orgs/%E0%A4%A', 'orgs/%zz', 'orgs/__proto__', 'keys', 'keys/constructor/revoke', 'faults', 'bulk/work-orders', 'bulk/readings', 'x', '', '__proto__');
  const body = fc.constantFrom(undefined, '{}', '{"seconds":1e400}', '{"seconds":60}', '{"seconds":-1}', '{"bogus":1}', '{"count":1000000}', '{"count":1.5}', '{"organizations":[{"id":"x"}]}', '{"organizations":[]}', '{"modules":{"meters":"x"}}', '{"modules":{"__proto__":true}}', '{"orgId":"org_acme"}', '{"orgId":"__proto__"}', '{"errorRate":2}', '{"pathPattern":"("}', '{"__proto__":{"x":1}}', 'not json', '[]');
  const token = fc.constantFrom<[string, string][]>([['X-Mock-Control-Token', CONTROL]], [['X-Mock-Control-Token', CONTROL]], [['X-Mock-Control-Token', 'wrong']], []);
  const type = fc.constantFrom<[string, string][]>([['Content-Type', 'application/json']], [['Content-Type', 'application/json']], [['Content-Type', 'text/plain']], [['Content-Type', '__proto__']], []);
  return fc.record({ method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), path, body, token, type, host: fc.constantFrom('127.0.0.1', 'localhost', 'attacker.example') })
    .map((r) => ({
      method: r.method,
      target: `/__mock/${r.path}`,
      headers: [['Host', r.host] as [string, string], ...r.token, ...(r.body !== undefined ? r.type : [])],
      body: r.body === undefined ? undefined : Buffer.from(r.body),
      chunked: false,
      host: false,
    }));
}

/** The arbitrary of malformed (and some well-formed) requests; `ids` are ids the mock knows. */
export function requests(ids: string[]): fc.Arbitrary<Generated> {
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
    { weight: 2, arbitrary: header(fc.constantFrom('Content-Type', 'Prefer', 'Accept'), fc.constantFrom(...PROTO_NAMES)) },
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
    abort: fc.oneof({ weight: 40, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
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
    abort: r.abort && r.body !== undefined,
  }));
}

/** The bytes of a generated request, with `key` for the valid key and correct framing. */
export function encode(r: Generated, port: number, key: string, control = ''): Buffer {
  const lines = [`${r.method} ${r.target} HTTP/1.1`];
  if (r.host) lines.push(`Host: 127.0.0.1:${port}`);
  for (const [name, value] of r.headers) lines.push(`${name}: ${value.split(KEY).join(key).split(CONTROL).join(control)}`);
  let body = r.body ?? Buffer.alloc(0);
  if (r.body && r.chunked) {
    lines.push('Transfer-Encoding: chunked');
    // An empty body is the last chunk alone: a zero-size chunk before it would end the message early and
    // leave the last chunk as a second, unparsable request whose answer races the first one.
    body = r.body.length === 0 ? Buffer.from('0\r\n\r\n')
      : Buffer.concat([Buffer.from(`${r.body.length.toString(16)}\r\n`), r.body, Buffer.from('\r\n0\r\n\r\n')]);
  } else if (r.body) lines.push(`Content-Length: ${r.body.length}`);
  lines.push('Connection: close', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n')), body]);
}

/** Whether a request asked Prism for its answer (an example's request_id is not the header's). */
export function asksPrism(r: Generated): boolean {
  return r.headers.some(([name, value]) => name === 'Prefer' && /(?:^|[,;\s])(code|example|dynamic|seed)=/.test(value)) || /[?&]__(code|example|dynamic)=/.test(r.target);
}

