/**
 * The broad mutants of the self-test (mock/mutants/broad.ts; docs/maintainers.md, "The self-test"): each
 * names the `must` requirements that state the rule it breaks, its own among them, and applies its one
 * deviation to every operation — checked here on a read, a create and an error of different families.
 */
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../contract/catalog.ts';
import { BROAD_MUTANTS } from '../mutants/broad.ts';
import { MUTANTS, mutantNamed } from '../mutants/catalog.ts';
import { startTestMock } from './support.ts';

test('every broad mutant is in the catalog, broad, and states its rule through must requirements of the catalog, its own first', () => {
  const catalog = loadCatalog();
  expect(BROAD_MUTANTS.length).toBeGreaterThanOrEqual(5);
  for (const m of BROAD_MUTANTS) {
    expect(MUTANTS, `${m.name} is in the catalog`).toContain(m);
    expect(m.broad).toBe(true);
    expect(m.states?.[0], `${m.name} states its own requirement first`).toBe(m.requirement);
    for (const id of m.states ?? []) expect(catalog.byId.get(id)?.level, `${m.name}: ${id} is a must requirement of the catalog`).toBe('must');
  }
});

/** The answers of the mock with mutant `name` (or none) to a list, a create, and an unknown id of another family. */
async function answers(name?: string) {
  const { mock, call } = await startTestMock({ mutation: name ? mutantNamed(name).mutation : undefined });
  try {
    const list = await call('/v1/meters?limit=1');
    const asset = ((await (await call('/v1/assets?limit=1')).json()) as { data: Array<{ id: string }> }).data[0]!;
    const created = await call('/v1/meters', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Broad probe', asset_id: asset.id }) });
    const missing = await call('/v1/work-orders/wo_doesnotexist');
    const read = async (r: Response) => ({ status: r.status, type: r.headers.get('content-type'), id: r.headers.get('x-request-id'), text: await r.text() });
    return { list: await read(list), created: await read(created), missing: await read(missing) };
  } finally {
    await mock.stop();
  }
}

test('each broad mutant changes a read, a create and an error of different operations alike; without one the mock keeps the rule', async () => {
  const plain = await answers();
  expect(plain.created.status).toBe(201);
  for (const r of Object.values(plain)) expect(r.id).toBeTruthy();
  const dropped = await answers('request-id-dropped-everywhere');
  for (const r of Object.values(dropped)) expect(r.id, 'X-Request-ID dropped everywhere').toBeNull();
  const text = await answers('content-type-text-everywhere');
  for (const r of Object.values(text)) expect(r.type, 'every body served as text/plain').toMatch(/^text\/plain/);
  expect((await answers('create-200-everywhere')).created.status).toBe(200);
  const renamed = await answers('api-version-renamed-everywhere');
  for (const r of [renamed.list, renamed.created]) {
    expect(JSON.parse(r.text).meta).toHaveProperty('version', 'v1');
    expect(JSON.parse(r.text).meta).not.toHaveProperty('api_version');
  }
});
