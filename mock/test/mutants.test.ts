/**
 * The self-test's mutants (docs/maintainers.md, "The self-test";
 * mock/mutants): the catalog is well-formed (unique names, at least
 * 60, each naming one testable requirement, every family covered) and a mutant really changes the
 * mock's behaviour through each kind of hook, while the mock without one stays conformant.
 */
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../contract/catalog.ts';
import { MUTANTS, mutantNamed } from '../mutants/catalog.ts';
import type { RunningMock } from '../server.ts';
import { startTestMock } from './support.ts';

test('at least 60 mutants, uniquely named, each breaking one testable requirement of the catalog', () => {
  expect(MUTANTS.length).toBeGreaterThanOrEqual(60);
  const names = MUTANTS.map((m) => m.name);
  expect(new Set(names).size, 'mutant names are unique').toBe(names.length);
  const catalog = loadCatalog();
  for (const m of MUTANTS) {
    expect(m.name, 'kebab-case names').toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    const requirement = catalog.byId.get(m.requirement);
    expect(requirement, `${m.name} names ${m.requirement}, which the catalog holds`).toBeDefined();
    expect(requirement!.testable, `${m.name} breaks a testable requirement`).toBe(true);
    expect(Object.keys(m.mutation).length, `${m.name} changes something`).toBeGreaterThan(0);
  }
});

test('every family with a testable requirement has a mutant', () => {
  const families = new Set(loadCatalog().requirements.filter((r) => r.testable).map((r) => r.family));
  const mutated = new Set(MUTANTS.map((m) => m.requirement.split('-')[0]));
  expect([...families].filter((f) => !mutated.has(f))).toEqual([]);
});

test('an unknown mutant name is an error listing the names', () => {
  expect(() => mutantNamed('no-such-mutant')).toThrow(/no mutant no-such-mutant; mutants: missing-authorization-403, /);
});

/** A mock with mutant `name` (or none), a live key, and a fetch bound to both. */
async function withMock(name: string | undefined, body: (call: (path: string, init?: RequestInit) => Promise<Response>, mock: RunningMock) => Promise<void>) {
  const { mock, call: send } = await startTestMock({ mutation: name ? mutantNamed(name).mutation : undefined });
  const call = (path: string, init: RequestInit = {}) => send(path, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  try {
    await body(call, mock);
  } finally {
    await mock.stop();
  }
}

/** Creates a meter on the first asset; the status of the answer. */
async function createMeter(call: (path: string, init?: RequestInit) => Promise<Response>): Promise<number> {
  const asset = ((await (await call('/v1/assets?limit=1')).json()) as { data: Array<{ id: string }> }).data[0]!;
  return (await call('/v1/meters', { method: 'POST', body: JSON.stringify({ name: 'Mutant probe', asset_id: asset.id }) })).status;
}

test('a response mutant changes the status: create-meter-200 answers 200 where the mock answers 201', async () => {
  await withMock(undefined, async (call) => expect(await createMeter(call)).toBe(201));
  await withMock('create-meter-200', async (call) => expect(await createMeter(call)).toBe(200));
});

test('a request-id mutant repeats the id; the mock never does', async () => {
  const ids = async (call: (path: string) => Promise<Response>) => [await call('/v1/meters?limit=1'), await call('/v1/nothing')].map((r) => r.headers.get('x-request-id'));
  await withMock(undefined, async (call) => {
    const [a, b] = await ids(call);
    expect(a).not.toBe(b);
  });
  await withMock('request-id-reused', async (call) => expect(await ids(call)).toEqual(['req_always_the_same', 'req_always_the_same']));
});

test('a request mutant rewrites the request: paths-without-v1 serves /meters', async () => {
  await withMock(undefined, async (call) => expect((await call('/meters?limit=1')).status).toBe(404));
  await withMock('paths-without-v1', async (call) => expect((await call('/meters?limit=1')).status).toBe(200));
});

test('a scope mutant lets a write key read; a rate mutant gives the test bucket 1,000', async () => {
  await withMock('write-implies-read', async (_call, mock) => {
    const key = (mock.profile.keys as { scopes: Record<string, string> }).scopes['meters:write']!;
    expect((await fetch(`${mock.baseUrl}/meters?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });
  await withMock('test-bucket-1000', async (_call, mock) => {
    const key = (mock.profile.keys as { test: string }).test;
    const r = await fetch(`${mock.baseUrl}/meters?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    expect(r.headers.get('x-ratelimit-limit')).toBe('1000');
  });
});

test('a list handler edited by a mutant sends the edited body, not the cached page', async () => {
  let clean = 0;
  await withMock(undefined, async (call) => {
    clean = ((await (await call('/v1/meters?limit=100')).json()) as { data: unknown[] }).data.length;
  });
  await withMock('foreign-meter-listed', async (call) => {
    const listed = ((await (await call('/v1/meters?limit=100')).json()) as { data: unknown[] }).data.length;
    expect(listed).toBeGreaterThan(clean);
  });
});
