/**
 * The mock and the spec agree (docs/freedoms.md, "Inferred value lists"; docs/integrators.md, control
 * API), over every operation of spec/openapi.yaml the mock routes:
 * - a path parameter that is not valid percent-encoding gets a status the operation documents (or a
 *   cross-cutting 401/403/429), and a 400's `errors` never claim a path parameter is missing;
 * - an inferred value list the mock enforces is the `enum` the schema declares (marked inferred in
 *   `x-inferred-keywords`): every listed value is accepted for its member, a value outside it refused;
 * - `Prefer: dynamic=true` keeps `meta.request_id` equal to `X-Request-ID` and adds no member beyond
 *   the schema's declared ones;
 * - `clock/advance` answers this call's advance and the clock's total, each under its own name.
 */
import { test, expect } from '@playwright/test';
import { loadOpenApi, loadOperations, type JsonSchema, type Operation } from '../../contract/openapi.ts';
import { startTestMock, type TestMock } from './support.ts';

let t: TestMock;
test.beforeAll(async () => {
  t = await startTestMock({ seed: 1 });
});
test.afterAll(async () => t.mock.stop());

const CROSS_CUTTING = [401, 403, 429];
const MALFORMED = ['%ZZ', '%E0%A4%A', '%', 'a%2'];
const schemas = loadOpenApi().components.schemas;
const deref = (s: JsonSchema | undefined): Record<string, any> | undefined => {
  let node = s as Record<string, any> | undefined;
  while (node && typeof node.$ref === 'string') node = schemas[node.$ref.split('/').pop()!] as Record<string, any>;
  return node;
};
const jsonWrite = (op: Operation) => Boolean(op.requestBody?.mediaTypes.includes('application/json'));

test('a malformed percent-encoded path parameter gets a documented status, never a claim that it is missing', async () => {
  const ops = loadOperations().filter((op) => op.parameters.some((p) => p.in === 'path'));
  expect(ops.length).toBeGreaterThan(15);
  for (const op of ops) {
    for (const segment of MALFORMED) {
      const path = `/v1${op.path.replace(/\{[^}]+\}/g, segment)}`;
      const r = await t.call(path, { method: op.method.toUpperCase(), ...(jsonWrite(op) && { body: '{}', headers: { 'content-type': 'application/json' } }) });
      const documented = op.responses.map((x) => x.status);
      const body = r.headers.get('content-type')?.includes('json') ? ((await r.json()) as { errors?: Array<{ in: string; name: string; message: string }> }) : (await r.text(), {});
      const where = `${op.method.toUpperCase()} ${path} answered ${r.status}`;
      expect([...documented, ...CROSS_CUTTING], where).toContain(r.status);
      for (const e of body.errors ?? []) if (e.in === 'path') expect(e.message, where).not.toMatch(/required|missing/);
    }
  }
});

test('an inferred value list the mock enforces is the enum the schema declares: listed values accepted, others refused', async () => {
  const inferredEnum = (m: Record<string, any> | undefined) => Array.isArray(m?.enum) && (m?.['x-inferred'] === true || (m?.['x-inferred-keywords'] ?? []).includes('enum'));
  const names = (r: Response) => (r.status === 400 ? r.json().then((b) => ((b as { errors?: Array<{ pointer?: string; name?: string }> }).errors ?? []).map((e) => e.pointer ?? e.name)) : r.text().then(() => []));
  let checked = 0;
  for (const op of loadOperations().filter(jsonWrite)) {
    const body = deref(op.requestBody!.schema);
    for (const [name, prop] of Object.entries((body?.properties ?? {}) as Record<string, JsonSchema>)) {
      const member = deref(prop);
      if (!inferredEnum(member)) continue;
      checked++;
      const path = `/v1${op.path.replace(/\{[^}]+\}/g, 'no_such_record')}`;
      const send = (value: unknown) => t.call(path, { method: op.method.toUpperCase(), body: JSON.stringify({ [name]: value }), headers: { 'content-type': 'application/json' } });
      for (const value of member!.enum as unknown[]) expect(await names(await send(value)), `${op.operationId} ${name}=${String(value)}`).not.toContain(`/${name}`);
      expect(await names(await send('NDIJV')), `${op.operationId} ${name}=NDIJV`).toContain(`/${name}`);
    }
  }
  expect(checked).toBeGreaterThan(3);
});

test('Prefer: dynamic=true keeps meta.request_id equal to X-Request-ID and adds no undeclared member', async () => {
  await t.mock.prismLoaded;
  const meter = Object.keys(deref({ $ref: '#/components/schemas/Meter' })!.properties);
  for (const path of ['/v1/meters?limit=2', '/v1/meters/mtr_x']) {
    const r = await t.call(path, { headers: { prefer: 'dynamic=true' } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { data: unknown; meta: Record<string, unknown> };
    expect(body.meta.request_id).toBe(r.headers.get('x-request-id'));
    expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
    for (const key of Object.keys(body.meta)) expect(['request_id', 'api_version', 'pagination']).toContain(key);
    for (const record of ([] as unknown[]).concat(body.data) as Array<Record<string, unknown>>) for (const key of Object.keys(record)) expect(meter, `${path}: ${key}`).toContain(key);
  }
});

test('clock/advance answers this call\'s advance and the clock\'s total, named as such', async () => {
  const first = (await (await t.call('/__mock/clock/advance', { method: 'POST', body: '{"seconds":60}' })).json()) as Record<string, unknown>;
  const second = (await (await t.call('/__mock/clock/advance', { method: 'POST', body: '{"seconds":30}' })).json()) as Record<string, unknown>;
  expect(second.advancedSeconds).toBe(30);
  expect(second.totalAdvancedSeconds).toBe((first.totalAdvancedSeconds as number) + 30);
  expect(Date.parse(second.now as string) - Date.parse(first.now as string)).toBeGreaterThanOrEqual(30_000);
  expect(((await (await t.call('/__mock/clock')).json()) as Record<string, unknown>).totalAdvancedSeconds).toBe(second.totalAdvancedSeconds);
});
