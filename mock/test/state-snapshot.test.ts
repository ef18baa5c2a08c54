/**
 * Snapshots and sandbox organizations (docs/integrators.md, "State and replicas"): `GET /__mock/state`
 * exports a document valid against spec/mock-state.schema.json (every organization with the world part,
 * or one), as of the moment of the request even while a slow client reads it; `PUT /__mock/state` imports one, and a bad document changes nothing and gets 400 problem
 * details naming the field; `--seed-file` starts from one; `POST /__mock/organizations` creates a tenant
 * whose keys are answered once, stored only as hashes, and kept apart from every other organization.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, type IncomingMessage } from 'node:http';
import { stateDocumentError } from '../state/validate.ts';
import { startTestMock, type TestMock } from './support.ts';
import { body } from '../../tools/lib/child-mock.ts';

let t: TestMock;
test.beforeEach(async () => {
  t = slow(await startTestMock());
});

/** `mock` whose calls wait up to 30 s (whole-state imports and exports on a busy machine). */
function slow(mock: TestMock): TestMock {
  const headers = (path: string, init: RequestInit) => ({
    ...(path.startsWith('/__mock/') ? { 'x-mock-control-token': mock.mock.controlToken!, ...(init.body !== undefined && { 'content-type': 'application/json' }) } : {}),
    authorization: `Bearer ${mock.key}`,
    ...(init.headers as Record<string, string>),
  });
  return { ...mock, call: (path, init = {}) => fetch(`${mock.mock.url}${path}`, { ...init, headers: headers(path, init), signal: AbortSignal.timeout(30_000) }) };
}
test.afterEach(() => t.mock.stop());

const json = (value: unknown): RequestInit => ({ method: 'PUT', body: JSON.stringify(value) });

test('GET /__mock/state exports every organization with the world part, or one organization, valid against the schema', async () => {
  const all = await body(t.call('/__mock/state'));
  expect(stateDocumentError(all)).toBeUndefined();
  expect(all.world.cursorSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(all.organizations.map((o: { id: string }) => o.id)).toContain('org_globex');
  const one = await body(t.call('/__mock/state?org=org_globex'));
  expect(stateDocumentError(one)).toBeUndefined();
  expect(one.world).toBeUndefined();
  expect(one.organizations.map((o: { id: string }) => o.id)).toEqual(['org_globex']);
  expect((await t.call('/__mock/state?org=org_nowhere')).status).toBe(404);
});

test('PUT /__mock/state imports an organization; a bad document changes nothing and names the field', async () => {
  const asset = (await body(t.call('/v1/assets?limit=1'))).data[0];
  const doc = await body(t.call('/__mock/state?org=org_acme'));
  const row = doc.organizations[0].assets.find((a: { id: string }) => a.id === asset.id);
  row.data.name = 'Imported name';

  const bad = structuredClone(doc);
  bad.organizations[0].settings.currency = 'usd';
  const refused = await t.call('/__mock/state', json(bad));
  expect(refused.status).toBe(400);
  expect(JSON.stringify((await body(refused)).errors)).toContain('/organizations/0/settings/currency');
  expect((await body(t.call(`/v1/assets/${asset.id}`))).data.name).toBe(asset.name);

  const twice = structuredClone(doc);
  twice.organizations[0].assets.push(twice.organizations[0].assets[0]);
  const duplicate = await t.call('/__mock/state', json(twice));
  expect(duplicate.status).toBe(400);
  expect(JSON.stringify((await body(duplicate)).errors)).toContain(`/organizations/0/assets/${twice.organizations[0].assets.length - 1}/id`);
  expect((await body(t.call(`/v1/assets/${asset.id}`))).data.name).toBe(asset.name);

  expect((await t.call('/__mock/state', json(doc))).status).toBe(200);
  expect((await body(t.call(`/v1/assets/${asset.id}`))).data.name).toBe('Imported name');
});

test('--seed-file starts from an exported document', async () => {
  const created = (await body(t.call('/v1/assets', { method: 'POST', body: JSON.stringify({ name: 'Seeded from a file' }), headers: { 'content-type': 'application/json' } }))).data;
  const dir = mkdtempSync(join(tmpdir(), 'mock-seed-file-'));
  try {
    const file = join(dir, 'state.json');
    writeFileSync(file, JSON.stringify(await body(t.call('/__mock/state'))));
    const seeded = slow(await startTestMock({ seedFile: file }));
    try {
      expect((await body(seeded.call(`/v1/assets/${created.id}`))).data).toEqual(created);
    } finally {
      await seeded.mock.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('POST /__mock/organizations: a sandbox tenant with keys of the roles asked for, answered once, kept apart', async () => {
  const made = await t.call('/__mock/organizations', { method: 'POST', body: JSON.stringify({ name: 'Team Blue sandbox', currency: 'EUR', modules: { meters: false }, data: 'sample', keys: [{ role: 'full' }, { role: 'read', prefix: 'test' }] }) });
  expect(made.status).toBe(201);
  const sandbox = await body(made);
  expect(sandbox.organization.settings.currency).toBe('EUR');
  expect(sandbox.organization.modules.meters).toBe(false);
  const [full, read] = sandbox.keys as Array<{ secret: string; scopes: string[] }>;
  expect(read!.scopes.every((s) => s.endsWith(':read'))).toBe(true);

  const own = await fetch(`${t.mock.url}/v1/assets`, { method: 'POST', headers: { authorization: `Bearer ${full!.secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Blue pump' }) });
  expect(own.status).toBe(201);
  const blue = (await body(own)).data;
  expect((await fetch(`${t.mock.url}/v1/assets/${blue.id}`, { headers: { authorization: `Bearer ${read!.secret}` } })).status).toBe(200);
  expect((await fetch(`${t.mock.url}/v1/assets`, { method: 'POST', headers: { authorization: `Bearer ${read!.secret}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x' }) })).status).toBe(403);
  // Tenant isolation both ways: another organization's ids are not found.
  expect((await t.call(`/v1/assets/${blue.id}`)).status).toBe(404);
  const acmeAsset = (await body(t.call('/v1/assets?limit=1'))).data[0];
  expect((await fetch(`${t.mock.url}/v1/assets/${acmeAsset.id}`, { headers: { authorization: `Bearer ${full!.secret}` } })).status).toBe(404);

  const exported = JSON.stringify(await body(t.call(`/__mock/state?org=${sandbox.organization.id}`)));
  expect(exported).not.toContain(full!.secret);
  expect(exported).not.toContain(read!.secret);
  expect((await t.call('/__mock/organizations', { method: 'POST', body: JSON.stringify({ id: sandbox.organization.id }) })).status).toBe(409);
  const badRole = await t.call('/__mock/organizations', { method: 'POST', body: JSON.stringify({ keys: [{ role: 'owner' }] }) });
  expect(badRole.status).toBe(400);
  expect(JSON.stringify((await body(badRole)).errors)).toContain('/keys/0/role');
});

test('GET /__mock/state is a snapshot of the moment of the request: writes made while the client reads it slowly are not in it', async () => {
  test.setTimeout(60_000);
  // About 30 MB of export: far more than the loopback socket buffers hold, so the export is still being written when the writes land.
  expect((await t.call('/__mock/bulk/work-orders', { method: 'POST', body: JSON.stringify({ count: 50_000 }), headers: { 'content-type': 'application/json' } })).status).toBe(201);
  const json = { 'content-type': 'application/json' };
  // Created last: the highest id, so the export reaches it after the pause.
  const wo = (await body(t.call('/v1/work-orders', { method: 'POST', body: JSON.stringify({ title: 'Before the export' }), headers: json }))).data as { id: string; title: string };
  const [location] = (await body(t.call('/v1/locations?limit=1'))).data as Array<{ id: string }>;

  // The export's first chunk read, then the client stops reading.
  const chunks: Buffer[] = [];
  const res = await new Promise<IncomingMessage>((done, fail) => {
    const req = request(`${t.mock.url}/__mock/state`, { headers: { 'x-mock-control-token': t.mock.controlToken! } }, (answer) => {
      answer.once('data', (chunk: Buffer) => {
        chunks.push(chunk);
        answer.pause();
        done(answer);
      });
    });
    req.on('error', fail).end();
  });

  expect((await t.call(`/v1/work-orders/${wo!.id}`, { method: 'PATCH', body: JSON.stringify({ title: 'Changed during the export' }), headers: json })).status).toBe(200);
  const meter = await body(t.call('/v1/meters', { method: 'POST', body: JSON.stringify({ name: 'Created during the export', location_id: location!.id }), headers: json }));
  expect(meter.data.id).toEqual(expect.any(String));

  res.on('data', (chunk: Buffer) => chunks.push(chunk)).resume();
  await new Promise((done) => res.once('end', done));
  const exported = Buffer.concat(chunks);
  expect(exported.length).toBeGreaterThan(20 * 1024 * 1024);
  const before = JSON.parse(exported.toString('utf8')) as { organizations: Array<{ workOrders: Array<{ id: string; data: { title: string } }>; meters: Array<{ id: string }> }> };
  const holder = (doc: typeof before) => doc.organizations.find((o) => o.workOrders.some((w) => w.id === wo!.id))!;
  expect(holder(before).workOrders.find((w) => w.id === wo!.id)!.data.title).toBe(wo!.title);
  expect(holder(before).meters.map((m) => m.id)).not.toContain(meter.data.id);

  const after = (await body(t.call('/__mock/state'))) as typeof before;
  expect(holder(after).workOrders.find((w) => w.id === wo!.id)!.data.title).toBe('Changed during the export');
  expect(holder(after).meters.map((m) => m.id)).toContain(meter.data.id);
});
