/**
 * Hostile state documents against `PUT /__mock/state` (docs/integrators.md, "Reliability"): every
 * number bounded like the control routes bound it (clock, counters, times), nesting depth bounded,
 * duplicate organization ids refused — each a 400, never a 5xx, and the previous state kept. A
 * fast-check fuzz puts hostile values at random places of a small valid document: never a 5xx, never a
 * stuck world (health and an API write still answer), the previous state kept on every refusal.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { startTestMock, type TestMock } from './support.ts';
import { exportState } from '../state/document.ts';
import { recordCount } from '../control/budget.ts';

let t: TestMock;
let small: { format: string; version: number; world: Record<string, unknown>; organizations: Array<Record<string, unknown>> };
test.beforeAll(async () => {
  t = await startTestMock({ preloadPrism: false });
  // A small whole document: the world part with one empty sandbox organization, loaded as the whole state.
  const org = await (await t.call('/__mock/organizations', { method: 'POST', body: JSON.stringify({ id: 'org_fuzz', data: 'empty' }) })).json() as { keys: Array<{ secret: string }> };
  const whole = await (await t.call('/__mock/state')).json() as typeof small;
  small = { ...whole, organizations: whole.organizations.filter((o) => o.id === 'org_fuzz') };
  small.world.fixtures = {};
  expect((await put(small)).status).toBe(200);
  key = org.keys[0]!.secret;
});
test.afterAll(() => t.mock.stop());
let key: string;

const put = (doc: unknown) => t.call('/__mock/state', { method: 'PUT', body: typeof doc === 'string' ? doc : JSON.stringify(doc) });
const snapshot = async () => (await (await t.call('/__mock/state')).text()).replace(/"cursorSecret":"[^"]*"/, '');

/** The mock still works: health answers 200, and an API write answers 201 with its JSON body. */
async function alive(): Promise<void> {
  expect((await t.call('/__mock/health')).status).toBe(200);
  const write = await fetch(`${t.mock.url}/v1/locations`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Alive' }), signal: AbortSignal.timeout(5000) });
  expect(write.status).toBe(201);
  expect(JSON.stringify(await write.json())).toContain('Alive');
}

/** `doc` is refused with 400 problem details, and the state before it is kept. */
async function refused(doc: unknown, pointer?: RegExp): Promise<void> {
  const before = await snapshot();
  const res = await put(doc);
  const problem = await res.json() as { status: number; code: string; detail: string };
  expect(res.status, problem.detail).toBe(400);
  expect(problem.code).toBe('validation_error');
  if (pointer) expect(problem.detail).toMatch(pointer);
  expect(await snapshot()).toBe(before);
}

test('a clock advanced past the control routes\' bound (1e300, 9e15 ms) is refused; the mock keeps working', async () => {
  for (const ms of [1e300, 9e15, 4e12]) await refused({ ...small, world: { ...small.world, clockAdvancedMs: ms } }, /clockAdvancedMs/);
  await alive();
});

test('id counters and key times beyond their bounds are refused', async () => {
  await refused({ ...small, world: { ...small.world, counters: { id: 1e20, customField: 0 } } }, /counters\/id/);
  const org = small.organizations[0]!;
  const keys = (org.keys as Array<Record<string, unknown>>).map((k) => ({ ...k, expiresAt: 9e15 }));
  await refused({ ...small, organizations: [{ ...org, keys }] }, /expiresAt/);
  await alive();
});

test('a 5,000-deep record is a 400 naming the depth, not a 500', async () => {
  const deep = `${'{"a":'.repeat(5000)}{}${'}'.repeat(5000)}`;
  await refused(JSON.stringify({ ...small, world: { ...small.world, fixtures: { deep: '<deep>' } } }).replace('"<deep>"', deep), /deep/);
  await alive();
});

test('two organizations with one id are refused, not merged', async () => {
  const org = small.organizations[0]!;
  await refused({ ...small, organizations: [org, { ...org, name: 'Twin' }] }, /\/organizations\/1\/id/);
  await refused({ format: small.format, version: small.version, organizations: [org, org] }, /\/organizations\/1\/id/);
  await alive();
});

/** Hostile values a document may carry anywhere. */
const hostile = fc.oneof(
  { arbitrary: fc.constantFrom(1e300, -1e300, 9e15, 1e20, -1, 2 ** 53, Number.MAX_VALUE), weight: 4 },
  fc.constantFrom(0.5, -0, null, true, '', '\u001b[31m', '<script>x</script>', '../../etc', '\u0000'),
  fc.double(), fc.integer(), fc.string({ maxLength: 20 }), fc.constant({}), fc.constant([]),
);

/** Every path (array of keys) to a value of `doc`, up to depth 5. */
function paths(doc: unknown, at: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  out.push(at);
  if (at.length >= 5 || !doc || typeof doc !== 'object') return out;
  for (const [k, v] of Object.entries(doc)) paths(v, [...at, Array.isArray(doc) ? Number(k) : k], out);
  return out;
}

function withValue(doc: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

test('fuzz: hostile values anywhere in a state document never get a 5xx, never stick the world, and a refusal keeps the state', async () => {
  // The values inside (not the root, format or version, which the schema refuses at once); half the
  // edits hit a number (clock, counters, seed).
  const inside = paths(small).filter((p) => p.length > 0 && p[0] !== 'format' && p[0] !== 'version');
  const numbers = inside.filter((p) => typeof p.reduce<unknown>((node, k) => (node as Record<string, unknown>)[k], small) === 'number');
  const edit = fc.tuple(fc.oneof(fc.constantFrom(...numbers), fc.constantFrom(...inside)), hostile);
  await fc.assert(fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), fc.boolean(), async (edits, partial) => {
    let doc: unknown = partial ? { format: small.format, version: small.version, organizations: small.organizations } : small;
    for (const [path, value] of edits) {
      // An edit under a part a previous edit replaced, or under the world part of a partial document, is dropped.
      const parent = path.slice(0, -1).reduce<unknown>((node, k) => (node && typeof node === 'object' ? (node as Record<string | number, unknown>)[k] : undefined), doc);
      if (parent && typeof parent === 'object') doc = withValue(doc, path, value);
    }
    const before = await snapshot();
    const res = await put(doc);
    expect(res.status).toBeLessThan(500);
    if (res.status !== 200) expect(await snapshot()).toBe(before);
    expect((await t.call('/__mock/health')).status).toBe(200);
    // An API write answers (401 when an edit changed the key), never a 5xx or an empty reply.
    const write = await fetch(`${t.mock.url}/v1/locations`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"name":"Fuzz"}', signal: AbortSignal.timeout(5000) });
    expect(write.status).toBeLessThan(500);
    expect((await write.text()).length).toBeGreaterThan(0);
    // Back to the small document for the next case (its key stays valid for `alive`).
    expect((await put(small)).status).toBe(200);
  }), {
    numRuns: 40,
    seed: 33,
    // The attacks that broke the mock once run first: a clock past any date, an id counter past its digits.
    examples: [[[[['world', 'clockAdvancedMs'], 1e300]], false], [[[['world', 'clockAdvancedMs'], 9e15]], false], [[[['world', 'counters', 'id'], 1e300]], false]],
  });
  await alive();
});

test('the streamed export is the state document, byte for byte as exportState would write it', async () => {
  const streamed = await (await t.call('/__mock/state')).text();
  expect(JSON.parse(streamed)).toEqual(JSON.parse(JSON.stringify(exportState(t.mock.app.world))));
  expect(streamed).toBe(JSON.stringify(exportState(t.mock.app.world)));
});

test('a process-wide budget: organizations and records past it are 507 problem details, and nothing changes', async () => {
  const tight = await startTestMock({ preloadPrism: false, budget: { organizations: 0, records: 0 } });
  const orgs = tight.mock.app.world.orgs.size;
  try {
    const records = recordCount(tight.mock.app.world);
    for (const [path, init] of [
      ['/__mock/organizations', { method: 'POST', body: JSON.stringify({ data: 'sample' }) }],
      ['/__mock/bulk/work-orders', { method: 'POST', body: JSON.stringify({ count: 10 }) }],
    ] as const) {
      const res = await tight.call(path, init);
      expect(res.status, path).toBe(507);
      expect(await res.json()).toMatchObject({ status: 507, code: 'insufficient_storage', detail: expect.stringMatching(/budget/) });
    }
    expect(tight.mock.app.world.orgs.size).toBe(orgs);
    expect(recordCount(tight.mock.app.world)).toBe(records);
  } finally {
    await tight.mock.stop();
  }
  // One organization of room: the first sandbox organization passes, the second is refused.
  const limit = orgs + 1;
  const capped = await startTestMock({ preloadPrism: false, budget: { organizations: limit } });
  try {
    expect((await capped.call('/__mock/organizations', { method: 'POST', body: '{}' })).status).toBe(201);
    expect((await capped.call('/__mock/organizations', { method: 'POST', body: '{}' })).status).toBe(507);
    expect(capped.mock.app.world.orgs.size).toBe(limit);
  } finally {
    await capped.mock.stop();
  }
});
