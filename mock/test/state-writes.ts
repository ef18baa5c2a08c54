/**
 * A write-heavy sequence through every write family of the API and the control API (records, readings,
 * parts sections with their stock movements, attachments, identifiers and their payload index, custom
 * fields, asset–part links, settings, keys, the clock), for the state stores' tests
 * (state-rows.test.ts, state-postgres-rows.test.ts).
 */
import { expect } from '@playwright/test';
import type { TestMock } from './support.ts';

/** Sends `method path` with a JSON body; expects a 2xx and returns the parsed body (undefined for 204). */
async function ok(t: TestMock, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<any> {
  const raw = body instanceof Uint8Array;
  const res = await t.call(path, { method, ...(body !== undefined && { body: raw ? body : JSON.stringify(body) }), headers: { 'content-type': raw ? 'application/octet-stream' : 'application/json', ...headers } });
  const text = await res.text();
  expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return text ? JSON.parse(text) : undefined;
}

const first = async (t: TestMock, path: string): Promise<string> => (await ok(t, 'GET', path)).data[0].id;

/** Writes through every write family of the API and the control API. */
export async function writeEverything(t: TestMock): Promise<void> {
  // First: a route that stores everything (a revoke), so what follows is stored only by its own rows.
  const minted = await ok(t, 'POST', '/__mock/keys', { orgId: 'org_acme', scopes: ['assets:read'], label: 'revoked' });
  await ok(t, 'POST', `/__mock/keys/${minted.id}/revoke`, {});
  const partId = await first(t, '/v1/parts?limit=1');
  const locationId = await first(t, '/v1/locations?limit=1');
  const userId = await first(t, '/v1/users?limit=1').catch(() => undefined);

  const asset = (await ok(t, 'POST', '/v1/assets', { name: 'Row pump' })).data;
  await ok(t, 'PATCH', `/v1/assets/${asset.id}`, { name: 'Row pump 2' });
  await ok(t, 'PUT', `/v1/assets/${asset.id}/parts/${partId}`);
  const location = (await ok(t, 'POST', '/v1/locations', { name: 'Row hall' })).data;
  await ok(t, 'PATCH', `/v1/locations/${location.id}`, { name: 'Row hall 2' });
  const part = (await ok(t, 'POST', '/v1/parts', { name: 'Row gasket' })).data;
  await ok(t, 'PATCH', `/v1/parts/${part.id}`, { name: 'Row gasket 2' });

  const meter = (await ok(t, 'POST', '/v1/meters', { name: 'Row meter', location_id: locationId })).data;
  await ok(t, 'PATCH', `/v1/meters/${meter.id}`, { name: 'Row meter 2' });
  for (const value of [1, 2, 3]) await ok(t, 'POST', `/v1/meters/${meter.id}/readings`, { value });
  await ok(t, 'POST', `/v1/meters/${meter.id}/readings`, { value: 0.5, reading_at: '2020-01-01T00:00:00Z' });

  const wo = (await ok(t, 'POST', '/v1/work-orders', { title: 'Row work order' })).data;
  await ok(t, 'PATCH', `/v1/work-orders/${wo.id}`, { title: 'Row work order 2' });
  if (userId) await ok(t, 'POST', `/v1/work-orders/${wo.id}/other-costs`, { user_id: userId, type: 'travel', amount_minor: 1200 });
  let section = await ok(t, 'GET', `/v1/work-orders/${wo.id}/parts`);
  section = await ok(t, 'POST', `/v1/work-orders/${wo.id}/parts`, { operation: 'replace', idempotencyKey: 'rows-1', expectedAggregateVersion: section.aggregateVersion, items: [{ partId, locationId: section.items?.[0]?.locationId ?? locationId, quantity: 1 }] });
  for (let i = 0; section.partStatus !== 'issued' && i < 6; i++) {
    const next = section.capabilities.allowedTransitions.at(-1);
    if (!next) break;
    section = await ok(t, 'POST', `/v1/work-orders/${wo.id}/parts`, { operation: 'transition', idempotencyKey: `rows-t${i}`, expectedAggregateVersion: section.aggregateVersion, targetStatus: next });
  }
  // Issuing moves stock: rows of kinds `stock` and `movement`.
  expect(section.partStatus).toBe('issued');
  const gone = (await ok(t, 'POST', '/v1/work-orders', { title: 'Row work order to delete' })).data;
  await ok(t, 'DELETE', `/v1/work-orders/${gone.id}`);

  const request = await ok(t, 'POST', '/v1/workrequests', { title: 'Row request' });
  const requestId = request.workRequest?.id;
  expect(requestId).toBeTruthy();
  await ok(t, 'POST', `/v1/workrequests/${requestId}/attachments?fileName=row.bin`, new Uint8Array([1, 2, 3]));
  await ok(t, 'POST', '/v1/workrequestportals', { title: 'Row portal' });

  const identifier = (await ok(t, 'POST', '/v1/identifiers', { value: 'ROW-PAYLOAD-1', target_type: 'asset', target_id: asset.id })).data;
  await ok(t, 'DELETE', `/v1/identifiers/${identifier.id}`);
  await ok(t, 'POST', '/v1/identifiers', { value: 'ROW-PAYLOAD-2', target_type: 'asset', target_id: asset.id });

  const fields = await ok(t, 'POST', '/v1/customfields/assets', { fields: [{ label: 'Row field' }, { label: 'Row field 2' }] });
  const defs = Array.isArray(fields) ? fields : fields.data;
  await ok(t, 'PATCH', `/v1/customfields/assets/${defs[0].id}`, { field: { label: 'Row field renamed' } });
  await ok(t, 'DELETE', `/v1/customfields/assets/${defs[1].id}`);

  // Last: routes that store one organization or the world part (not everything, which would hide a missed row).
  await ok(t, 'PATCH', '/__mock/orgs/org_acme', { settings: { currency: 'EUR' } });
  await ok(t, 'POST', '/__mock/keys', { orgId: 'org_acme', scopes: ['assets:read'], label: 'rows' });
  await ok(t, 'POST', '/__mock/clock/advance', { seconds: 60 });
}

