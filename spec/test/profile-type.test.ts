/**
 * `TargetProfile` (contract/profile.ts, written by hand) names exactly the properties of
 * spec/target-profile.schema.json (docs/design.md §3), at every level.
 *
 * `EVERY_FIELD` is typed `Complete<TargetProfile>`: the compiler demands every property of the type and
 * refuses any other, so the sample is the type's property tree. The test then asserts the schema's
 * property tree equals the sample's (a property added to one side only fails here), and that the sample
 * is a valid profile (so the value types agree too). Optionality differs on purpose (a resolved profile
 * always has `fixtures` and `bodies`, and `keys.live` as a pool), so it is not compared.
 */
import { readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { PROFILE_SCHEMA_FILE } from '../../contract/paths.ts';
import { profileProblems, type TargetProfile } from '../../contract/profile.ts';

/** Every property required, down to the leaves (arrays and `Record`s keep their element types). */
type Complete<T> = T extends readonly (infer E)[] ? Complete<E>[] : T extends object ? { [K in keyof T]-?: Complete<NonNullable<T[K]>> } : T;

const KEY = 'sk_live_sample';
const STOCK = { partId: 'prt_1', locationId: 'loc_1' };

const EVERY_FIELD: Complete<TargetProfile> = {
  name: 'sample',
  baseUrl: 'https://mms.example.com/v1',
  concurrency: 8,
  keys: {
    live: [KEY],
    test: 'sk_test_sample',
    otherOrg: KEY,
    revoked: KEY,
    expired: KEY,
    noScopes: KEY,
    scopes: { 'meters:read': KEY },
    allScopesExcept: { 'meters:read': KEY },
    moduleDisabled: { parts_inventory: KEY, meters: KEY, requests: KEY, request_portals: KEY },
    costTrackingDisabled: KEY,
    restrictedSettings: KEY,
    rateLimit: { live: KEY, test: 'sk_test_sample' },
  },
  fixtures: {
    activeUserId: 'usr_1',
    inactiveUserId: 'usr_2',
    otherOrgUserId: 'usr_3',
    teamId: 'team_1',
    assetId: 'ast_1',
    locationId: 'loc_1',
    rejectedWorkRequestId: 'wr_1',
    pendingWorkRequestIds: ['wr_2'],
    meterUsedByAutomation: 'mtr_1',
    meterInMetersDisabledOrg: 'mtr_2',
    workOrderWithUnavailableLink: 'wo_1',
    expenseInCostTrackingDisabledOrg: { workOrderId: 'wo_2', costId: 'cost_1', userId: 'usr_4' },
    expenseUnderPreviousCurrency: { workOrderId: 'wo_3', costId: 'cost_2', currency: 'EUR' },
    stockedParts: [STOCK],
    partsModuleDisabledStock: STOCK,
    restrictedSettingsStock: STOCK,
  },
  bodies: { createMeter: {}, createMeterReading: {}, createWorkOrder: {}, createCompatWorkOrder: {} },
  control: { baseUrl: 'http://localhost:4130', token: 't' },
  headers: { 'X-Tenant': 'acme' },
  tls: { ca: 'ca.pem', insecure: false },
  proxy: { server: 'http://proxy.example.com:3128', bypass: 'localhost' },
};

interface SchemaNode {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

const schema = JSON.parse(readFileSync(PROFILE_SCHEMA_FILE, 'utf8')) as SchemaNode & { $defs: Record<string, SchemaNode> };

/** The node a `$ref` (`#/$defs/name`) points at, or the node itself. */
function deref(node: SchemaNode): SchemaNode {
  return node.$ref ? schema.$defs[node.$ref.replace('#/$defs/', '')]! : node;
}

/** Dotted paths of every named property under `node` (arrays by their items). */
function schemaPaths(node: SchemaNode, prefix = ''): string[] {
  const at = deref(node);
  if (at.items) return schemaPaths(at.items, prefix);
  return Object.entries(at.properties ?? {}).flatMap(([name, child]) => [`${prefix}${name}`, ...schemaPaths(child, `${prefix}${name}.`)]);
}

/** Dotted paths of every property of the sample whose schema names its properties (not free maps). */
function samplePaths(value: unknown, node: SchemaNode, prefix = ''): string[] {
  const at = deref(node);
  if (Array.isArray(value)) return at.items ? samplePaths(value[0], at.items, prefix) : [];
  if (!value || typeof value !== 'object' || !at.properties) return [];
  return Object.entries(value).flatMap(([name, child]) => {
    const childNode = at.properties![name] ?? {};
    return [`${prefix}${name}`, ...samplePaths(child, childNode, `${prefix}${name}.`)];
  });
}

test('TargetProfile has exactly the properties of the profile schema, at every level', () => {
  const fromSchema = schemaPaths(schema).filter((p) => p !== '$schema').sort();
  expect(samplePaths(EVERY_FIELD, schema).sort()).toEqual(fromSchema);
});

test('a profile with every TargetProfile property is valid against the schema', () => {
  expect(profileProblems(EVERY_FIELD)).toEqual([]);
});
