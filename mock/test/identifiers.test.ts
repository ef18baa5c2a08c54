/**
 * Identifier handlers and seed (Resources › Identifier; Authentication, module rules) on a hand-built
 * organization: resolution filters out unavailable targets (archived, or their module disabled),
 * retirement frees the payload and is idempotent, generated payloads have their shape, and the seed
 * puts identifiers on a part of the organization whose Parts Inventory module is disabled.
 */
import { test, expect } from '@playwright/test';
import { generatedValue, identifierHandlers } from '../handlers/identifiers.ts';
import { seedIdentifiers } from '../seed/identifiers.ts';
import { Random } from '../store/random.ts';
import { Clock } from '../store/clock.ts';
import { Org } from '../store/org.ts';
import { World } from '../store/world.ts';
import { ProblemError } from '../http/problem.ts';
import type { Context, Reply } from '../http/context.ts';
import type { AssetRow, LocationRow, PartRow } from '../store/types.ts';

const MODULES = { parts_inventory: true, meters: true, requests: true, request_portals: true };
const SETTINGS = { currency: 'USD', costTracking: true, staging: { kitted: true, staged: true }, unitCostOverrides: true };

/** A world with one organization holding one asset, one location and one part. */
function plant() {
  const world = new World(3, new Clock());
  const org = world.addOrg(new Org('org_t', 'Test', { ...MODULES }, SETTINGS));
  org.locations.insert({ id: 'loc_1', data: { id: 'loc_1', name: 'Site', parentId: null } } as LocationRow);
  org.assets.insert({ id: 'ast_1', archived: false, data: { id: 'ast_1', name: 'Pump' } } as AssetRow);
  org.parts.insert({ id: 'prt_1', archived: false, unitCostMinor: null, data: { id: 'prt_1', name: 'Seal' } } as PartRow);
  return { world, org };
}

/** Runs one handler with the parts of a Context it reads. */
function call(world: World, org: Org, operationId: string, input: { params?: Record<string, unknown>; body?: unknown } = {}): Reply {
  const ctx = { world, org, params: input.params ?? {}, body: input.body, now: world.clock.now(), requestId: 'req_test' } as unknown as Context;
  return identifierHandlers[operationId as keyof typeof identifierHandlers](ctx);
}

function status(run: () => Reply): number {
  try {
    return run().status;
  } catch (error) {
    if (error instanceof ProblemError) return error.status;
    throw error;
  }
}

const resolveStatus = (world: World, org: Org, payload: string) => status(() => call(world, org, 'resolveIdentifier', { params: { payload } }));

test('resolution filters out archived targets and targets whose module is disabled', () => {
  const { world, org } = plant();
  for (const [value, target_type, target_id] of [['A', 'asset', 'ast_1'], ['P', 'part', 'prt_1'], ['L', 'location', 'loc_1']]) {
    expect(call(world, org, 'attachIdentifier', { body: { value, target_type, target_id } }).status).toBe(201);
  }
  const resolved = JSON.parse(call(world, org, 'resolveIdentifier', { params: { payload: 'L' } }).body!);
  expect(resolved.data).toMatchObject({ target_type: 'location', target_id: 'loc_1', target: { id: 'loc_1', childrenIds: [] } });
  expect(resolveStatus(world, org, 'P')).toBe(200);
  org.modules.parts_inventory = false;
  expect(resolveStatus(world, org, 'P')).toBe(404);
  org.modules.parts_inventory = true;
  expect(resolveStatus(world, org, 'P')).toBe(200);
  org.assets.replace({ ...org.assets.get('ast_1')!, archived: true });
  expect(resolveStatus(world, org, 'A')).toBe(404);
  expect(status(() => call(world, org, 'generateIdentifier', { body: { target_type: 'asset', target_id: 'ast_1' } }))).toBe(404);
});

test('retiring frees the payload, repeats with 204, and leaves other organizations alone', () => {
  const { world, org } = plant();
  const other = world.addOrg(new Org('org_o', 'Other', { ...MODULES }, SETTINGS));
  const id = JSON.parse(call(world, org, 'attachIdentifier', { body: { value: 'TAG-1', target_type: 'asset', target_id: 'ast_1' } }).body!).data.id;
  expect(status(() => call(world, org, 'attachIdentifier', { body: { value: 'TAG-1', target_type: 'location', target_id: 'loc_1' } }))).toBe(409);
  expect(status(() => call(world, other, 'retireIdentifier', { params: { id } }))).toBe(404);
  expect(call(world, org, 'retireIdentifier', { params: { id } }).status).toBe(204);
  expect(call(world, org, 'retireIdentifier', { params: { id } }).status).toBe(204);
  expect(resolveStatus(world, org, 'TAG-1')).toBe(404);
  expect(call(world, org, 'attachIdentifier', { body: { value: 'TAG-1', target_type: 'location', target_id: 'loc_1' } }).status).toBe(201);
  expect(org.identifiers.visibleCount).toBe(1);
});

test('a failed import leaves no identifier behind', () => {
  const { world, org } = plant();
  const entries = [{ value: 'X1', target_type: 'asset', target_id: 'ast_1' }, { value: 'X2', target_type: 'part', target_id: 'prt_missing' }];
  expect(status(() => call(world, org, 'importIdentifiers', { body: { identifiers: entries } }))).toBe(404);
  expect(org.identifiers.all()).toHaveLength(0);
  expect(org.identifierByValue.size).toBe(0);
});

test('generated payloads are MMS- and 10 base-36 characters, never an active payload', () => {
  const { org } = plant();
  org.identifierByValue.set('MMS-0000000000', 'idf_x');
  const digits = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ...Array(10).fill(35)];
  const value = generatedValue(org, () => digits.shift()!);
  expect(value).toBe('MMS-ZZZZZZZZZZ');
  expect(generatedValue(org)).toMatch(/^MMS-[0-9A-Z]{10}$/);
});

test('the seed puts identifiers on a part of the organization whose Parts Inventory is disabled', () => {
  const { world, org } = plant();
  org.modules.parts_inventory = false;
  const clock = world.clock;
  seedIdentifiers({
    world, org, random: new Random(5), size: 'fixtures', role: 'moduleDisabled.parts_inventory',
    ago: (days) => new Date(clock.now() - days * 86_400_000).toISOString(),
    fixture: () => {},
    volume: (_min, _max, _small, fixtures) => fixtures ?? 1,
  });
  const onPart = [...org.identifiers.values()].filter((i) => i.data.target_type === 'part');
  expect(onPart.length).toBeGreaterThanOrEqual(3);
  for (const row of org.identifiers.values()) expect(org.identifierByValue.get(row.data.value)).toBe(row.id);
});
