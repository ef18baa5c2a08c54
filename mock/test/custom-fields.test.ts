/**
 * The custom-field and location handlers over HTTP (Endpoints › Custom fields; Resources › Custom-field
 * definition; Resources › Asset and location): the inferred codes and side effects the black-box suite
 * does not pin down, and awkward labels that must never cause a 500.
 */
import { test, expect } from '@playwright/test';
import { startMock, type RunningMock } from '../server.ts';

let mock: RunningMock;
let key: string;
test.beforeAll(async () => {
  mock = await startMock({ port: 0 });
  key = (mock.profile.keys as { live: string[] }).live[0]!;
});
test.afterAll(async () => mock.stop());

let n = 0;
const label = () => `unit field ${n++}`;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(`${mock.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

test('a duplicate label answers 409 duplicate_label and creates nothing', async () => {
  const [existing] = (await call('POST', '/customfields/assets', { fields: [{ label: label() }] })).body;
  const fresh = label();
  const refused = await call('POST', '/customfields/assets', { fields: [{ label: fresh }, { label: existing.label }] });
  expect(refused.status).toBe(409);
  expect(refused.body.code).toBe('duplicate_label');
  const labels = (await call('GET', '/customfields/assets')).body.map((d: { label: string }) => d.label);
  expect(labels).not.toContain(fresh);
  expect((await call('PATCH', `/customfields/assets/${existing.id}`, { field: { label: existing.label } })).status).toBe(204);
});

test('created definitions get the next sortIndex values; an archived label can be reused', async () => {
  const before = (await call('GET', '/customfields/parts')).body as Array<{ sortIndex: number }>;
  const last = Math.max(-1, ...before.map((d) => d.sortIndex));
  const created = (await call('POST', '/customfields/parts', { fields: [{ label: label() }, { label: label(), type: 'number' }] })).body;
  expect(created.map((d: { sortIndex: number }) => d.sortIndex)).toEqual([last + 1, last + 2]);
  expect(created[1]).toMatchObject({ type: 'number', options: [], required: false, unlisted: false, includeInRecurrence: false });
  expect((await call('DELETE', `/customfields/parts/${created[0].id}`)).status).toBe(204);
  expect((await call('POST', '/customfields/parts', { fields: [{ label: created[0].label }] })).status).toBe(200);
});

test('a rename moves values on assets, and unusual labels never cause a 500', async () => {
  const [field] = (await call('POST', '/customfields/assets', { fields: [{ label: '__proto__' }] })).body;
  const created = await call('POST', '/assets', { name: 'unit asset', extraFields: JSON.parse('{"__proto__": "odd", "constructor": "x"}') });
  expect(created.status).toBe(400);
  const asset = (await call('POST', '/assets', { name: 'unit asset', extraFields: JSON.parse('{"__proto__": "odd"}') })).body.data;
  expect((await call('PATCH', `/customfields/assets/${field.id}`, { field: { label: 'constructor' } })).status).toBe(204);
  const read = await call('GET', `/assets/${asset.id}`);
  expect(read.status).toBe(200);
  expect(typeof read.body.data.extraFields).toBe('object');
  const [other] = (await call('POST', '/customfields/assets', { fields: [{ label: label() }] })).body;
  const valued = (await call('POST', '/assets', { name: 'unit asset 2', extraFields: { [other.label]: 'v' } })).body.data;
  const renamed = label();
  expect((await call('PATCH', `/customfields/assets/${other.id}`, { field: { label: renamed } })).status).toBe(204);
  expect((await call('GET', `/assets/${valued.id}`)).body.data.extraFields).toEqual({ [renamed]: 'v' });
});

test('location list items carry no childrenIds, and extraFields only when expanded', async () => {
  const parent = (await call('POST', '/locations', { name: 'unit parent' })).body.data;
  const child = (await call('POST', '/locations', { name: 'unit child', parentId: parent.id })).body.data;
  expect(parent.childrenIds).toEqual([]);
  expect(child).toMatchObject({ parentId: parent.id, childrenIds: [], extraFields: {}, address: null });
  const page = (await call('GET', '/locations?limit=100&direction=desc')).body.data as Array<Record<string, unknown>>;
  expect(page.find((l) => l.id === child.id)).toEqual({ id: child.id, name: 'unit child', parentId: parent.id, address: null, created_at: child.created_at, updated_at: child.updated_at });
  const expanded = (await call('GET', '/locations?limit=100&direction=desc&expand=extra_fields')).body.data as Array<Record<string, unknown>>;
  expect(expanded.find((l) => l.id === child.id)).toMatchObject({ extraFields: {} });
  const moved = await call('PATCH', `/locations/${parent.id}`, { parentId: null, name: 'unit parent renamed' });
  expect(moved.status).toBe(200);
  expect(moved.body.data).toMatchObject({ parentId: null, childrenIds: [child.id] });
});
