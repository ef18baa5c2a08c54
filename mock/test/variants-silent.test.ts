/**
 * The variants that choose differently where the description is silent (docs/freedoms.md):
 * `ignored-writes` accepts members of write bodies it does not show and ignores them, `other-success-statuses`
 * answers other 2xx on inferred operations, `other-routes` serves inferred operations under /v1/vendor.
 */
import { test, expect } from '@playwright/test';
import { variantMutation } from '../variants/catalog.ts';
import { startTestMock, type TestMock } from './support.ts';

const json = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const patch = (body: unknown): RequestInit => ({ ...json(body), method: 'PATCH' });

async function withVariant(name: string, body: (t: TestMock) => Promise<void>): Promise<void> {
  const t = await startTestMock({ mutation: variantMutation(name) });
  try {
    await body(t);
  } finally {
    await t.mock.stop();
  }
}

test('ignored-writes: a status PATCH, a meter name and a reading_at answer 2xx and change nothing', async () => {
  await withVariant('ignored-writes', async ({ call }) => {
    const wo = (await (await call('/v1/work-orders', json({ title: 'kept', priority: 'high', type: 'preventive' }))).json()) as { data: Record<string, unknown> };
    expect(wo.data).toMatchObject({ title: 'kept', priority: 'high' });
    expect(wo.data.type).not.toBe('preventive');
    const moved = await call(`/v1/work-orders/${wo.data.id}`, patch({ status: 'done', title: 'renamed' }));
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { data: Record<string, unknown> }).data).toMatchObject({ title: 'renamed', status: 'open' });
    const asset = ((await (await call('/v1/assets?limit=1')).json()) as { data: Array<{ id: string }> }).data[0]!;
    const meter = await call('/v1/meters', json({ name: 'Boiler hours', description: 'x', asset_id: asset.id }));
    expect(meter.status).toBe(201);
    const created = ((await meter.json()) as { data: Record<string, unknown> }).data;
    expect(created).toMatchObject({ name: 'Meter', description: null, asset_id: asset.id });
    const reading = await call(`/v1/meters/${created.id}/readings`, json({ value: 4, reading_at: '2020-01-01T00:00:00Z' }));
    expect(reading.status).toBe(201);
    const data = ((await reading.json()) as { data: { value: number; reading_at: string } }).data;
    expect(data.value).toBe(4);
    expect(Date.parse(data.reading_at)).not.toBe(Date.parse('2020-01-01T00:00:00Z'));
  });
});

test('other-success-statuses: inferred creates swap 200 and 201, inferred deletes answer 200; stated ones keep theirs', async () => {
  await withVariant('other-success-statuses', async ({ call }) => {
    expect((await call('/v1/workrequests', json({ title: 'CT', priority: 'LOW' }))).status).toBe(201);
    const asset = await call('/v1/assets', json({ name: 'CT asset' }));
    expect(asset.status).toBe(200);
    const request = (await (await call('/v1/workrequests', json({ title: 'CT 2' }))).json()) as { workRequest: { id: string } };
    expect((await call(`/v1/workrequests/${request.workRequest.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call('/v1/work-orders', json({ title: 'stated' }))).status).toBe(201);
  });
});

test('other-routes: inferred operations live under /v1/vendor; the spec path is 404 once authenticated, 401 before', async () => {
  await withVariant('other-routes', async ({ mock, call }) => {
    expect((await call('/v1/locations?limit=1')).status).toBe(404);
    expect((await fetch(`${mock.url}/v1/locations?limit=1`)).status).toBe(401);
    const moved = await call('/v1/vendor/locations?limit=1');
    expect(moved.status).toBe(200);
    expect((await call('/v1/vendor/meters?limit=1')).status).toBe(404);
    expect((await call('/v1/meters?limit=1')).status).toBe(200);
    expect((await call('/v1/workrequests?limit=1')).status).toBe(200);
    expect((await call('/v1/workrequests', json({ title: 'CT' }))).status).toBe(404);
    expect((await call('/v1/vendor/workrequests', json({ title: 'CT' }))).status).toBe(200);
  });
});

test('no-inferred-limits: an inferred body takes a 300-character name, a stated limit still holds', async () => {
  await withVariant('no-inferred-limits', async ({ call }) => {
    const asset = ((await (await call('/v1/assets?limit=1')).json()) as { data: Array<{ id: string }> }).data[0]!;
    const long = 'n'.repeat(300);
    const meter = await call('/v1/meters', json({ name: long, asset_id: asset.id }));
    expect(meter.status).toBe(201);
    expect(((await meter.json()) as { data: { name: string } }).data.name).toBe(long);
    expect((await call('/v1/meters', json({ name: 42, asset_id: asset.id }))).status).toBe(400);
    expect((await call('/v1/meters?limit=101')).status).toBe(400);
  });
});

test('other-effects: a done work order stays closed, and allowedTransitions never offers kitted or staged', async () => {
  await withVariant('other-effects', async ({ call }) => {
    const wo = ((await (await call('/v1/work-orders', json({ title: 'CT' }))).json()) as { data: { id: string } }).data;
    const section = (await (await call(`/v1/work-orders/${wo.id}/parts`)).json()) as { capabilities: { allowedTransitions: string[] } };
    expect(section.capabilities.allowedTransitions).not.toContain('kitted');
    expect(section.capabilities.allowedTransitions).not.toContain('staged');
    expect((await call(`/v1/work-orders/${wo.id}`, patch({ status: 'done' }))).status).toBe(200);
    expect((await call(`/v1/work-orders/${wo.id}`, patch({ status: 'open' }))).status).toBe(400);
    expect(((await (await call(`/v1/work-orders/${wo.id}`)).json()) as { data: { status: string } }).data.status).toBe('done');
  });
});
