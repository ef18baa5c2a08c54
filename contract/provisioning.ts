/**
 * What a vendor provisions for a certification run (docs/vendors.md; docs/design.md
 * §3): one row per role or fixture of the target profile, with what to provision and the requirements
 * it unlocks. The one source of docs/vendors.md's provisioning table (`provisioningTable`, written by
 * tools/write-provisioning-table.ts) and of `mms-conformance profile init` (`starterProfile`).
 */
import { MODULES } from './openapi.ts';

/** One row of the provisioning table. */
export interface ProvisioningEntry {
  /** The profile path as docs/vendors.md names it (`keys.scopes.<scope>` stands for 18 entries). */
  path: string;
  /** What to provision. */
  what: string;
  /** The requirements (or families) the entry unlocks. */
  unlocks: string;
  /** The starter profile's placeholder at each concrete path of the row. */
  placeholders: Record<string, unknown>;
  /** In the short starter of `profile init` (without --full): what a first run needs. */
  starter?: true;
}

/** The 18 scopes of the API description's Authentication section, in its order. */
export const SCOPES = [
  'work_orders:read', 'work_orders:write', 'work_requests:read', 'work_requests:write',
  'work_request_portals:read', 'work_request_portals:write', 'assets:read', 'assets:write',
  'locations:read', 'locations:write', 'parts:read', 'parts:write', 'meters:read', 'meters:write',
  'identifiers:read', 'identifiers:write', 'custom_fields:read', 'custom_fields:write',
] as const;

/**
 * The one naming scheme of key variables (profiles, examples, curl lines of the reports, docs): `MMS_KEY_`
 * and the key's path under `keys` in upper snake case, `scopes` singular (`keys.otherOrg` →
 * `MMS_KEY_OTHER_ORG`, `keys.scopes.meters:read` → `MMS_KEY_SCOPE_METERS_READ`); the live pool's first key
 * is `MMS_KEY_LIVE`, further ones `MMS_KEY_LIVE_2`, `MMS_KEY_LIVE_3`, ….
 */
export function keyEnvName(path: string, index = 0): string {
  const snake = path.replace(/^keys\./, '').replace(/^scopes\./, 'scope.').replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
  return `MMS_KEY_${snake}${index > 0 ? `_${index + 1}` : ''}`;
}
const envName = (path: string) => keyEnvName(path);
const key = (path: string) => ({ [path]: `env:${envName(path)}` });
const id = (path: string, what: string) => ({ [path]: `<id of ${what}>` });
const stock = (path: string) => ({ [path]: { partId: '<id of the part>', locationId: '<id of the location>' } });

/** Every role and fixture of the target profile, in the order of docs/vendors.md's table. */
export const PROVISIONING: readonly ProvisioningEntry[] = [
  { path: 'keys.live', what: 'one or more full-scope `sk_live_` keys of the main organization (every module on, cost tracking on); more keys spread the suite\'s load over more rate budgets', unlocks: 'almost everything', placeholders: { 'keys.live': [`env:${keyEnvName('keys.live')}`] }, starter: true },
  { path: 'keys.test', what: 'a full-scope `sk_test_` key of the main organization', unlocks: 'AUTH-010, RATE-002', placeholders: key('keys.test'), starter: true },
  { path: 'keys.otherOrg', what: 'a full-scope key of a second organization', unlocks: 'TENANT-*, cursor binding (PAGE-*)', placeholders: key('keys.otherOrg'), starter: true },
  { path: 'keys.revoked', what: 'a revoked key of the main organization', unlocks: 'AUTH-008, AUTH-009', placeholders: key('keys.revoked'), starter: true },
  { path: 'keys.expired', what: 'an expired key of the main organization', unlocks: 'AUTH-008, AUTH-009', placeholders: key('keys.expired') },
  { path: 'keys.noScopes', what: 'a valid key of the main organization with no scopes', unlocks: 'SCOPE-004, REQID-002', placeholders: key('keys.noScopes'), starter: true },
  { path: 'keys.scopes.<scope>', what: 'one key of the main organization per single scope (18), holding that scope only', unlocks: 'SCOPE-001..003, SCOPE-010..019', placeholders: Object.assign({}, ...SCOPES.map((s) => key(`keys.scopes.${s}`))) },
  { path: 'keys.allScopesExcept.<scope>', what: 'one key of the main organization per scope (18), holding every scope but that one; without them the suite falls back to sending every operation with every other single-scope key (about 15 times the requests)', unlocks: 'SCOPE-002, SCOPE-005 in one request per operation', placeholders: Object.assign({}, ...SCOPES.map((s) => key(`keys.allScopesExcept.${s}`))) },
  { path: 'keys.moduleDisabled.<module>', what: 'a full-scope key of an organization with that module disabled (parts_inventory, meters, requests, request_portals)', unlocks: 'MODULE-*', placeholders: Object.assign({}, ...MODULES.map((m) => key(`keys.moduleDisabled.${m}`))) },
  { path: 'keys.costTrackingDisabled', what: 'a full-scope key of an organization with cost tracking off', unlocks: 'EXP-010, EXP-013, EXP-019, PARTS-004', placeholders: key('keys.costTrackingDisabled') },
  { path: 'keys.restrictedSettings', what: 'a full-scope key of an organization whose staging settings hide kitted and staged, without unit-cost overrides', unlocks: 'PARTS-022, PARTS-025', placeholders: key('keys.restrictedSettings') },
  { path: 'keys.rateLimit.live', what: 'an `sk_live_` key used by nothing else: the rate-limit tests spend its budget', unlocks: 'RATE-003..006, RATE-009..011', placeholders: key('keys.rateLimit.live') },
  { path: 'keys.rateLimit.test', what: 'an `sk_test_` key used by nothing else: the rate-limit tests spend its budget', unlocks: 'RATE-005..007, RATE-009', placeholders: key('keys.rateLimit.test') },
  { path: 'fixtures.activeUserId', what: 'an active user of the main organization', unlocks: 'EXP-003..008, EXP-016, EXP-018, WO-008', placeholders: id('fixtures.activeUserId', 'an active user'), starter: true },
  { path: 'fixtures.inactiveUserId', what: 'a deactivated user of the main organization', unlocks: 'EXP-009', placeholders: id('fixtures.inactiveUserId', 'a deactivated user') },
  { path: 'fixtures.otherOrgUserId', what: 'an active user of the second organization', unlocks: 'EXP-009, TENANT-004', placeholders: id('fixtures.otherOrgUserId', 'a user of the second organization'), starter: true },
  { path: 'fixtures.teamId', what: 'a team of the main organization', unlocks: 'WO-008', placeholders: id('fixtures.teamId', 'a team'), starter: true },
  { path: 'fixtures.assetId', what: 'an asset of the main organization', unlocks: 'tests that need an existing asset', placeholders: id('fixtures.assetId', 'an asset') },
  { path: 'fixtures.locationId', what: 'a location of the main organization', unlocks: 'tests that need an existing location', placeholders: id('fixtures.locationId', 'a location') },
  { path: 'fixtures.rejectedWorkRequestId', what: 'a REJECTED work request of the main organization', unlocks: 'WO-018', placeholders: id('fixtures.rejectedWorkRequestId', 'a rejected work request') },
  { path: 'fixtures.pendingWorkRequestIds', what: 'PENDING work requests the suite may approve (each run consumes some), when the target cannot create work requests', unlocks: 'approval rules (WO-*)', placeholders: { 'fixtures.pendingWorkRequestIds': ['<id of a pending work request>'] } },
  { path: 'fixtures.meterUsedByAutomation', what: 'a meter of the main organization that an automation uses', unlocks: 'METER-011', placeholders: id('fixtures.meterUsedByAutomation', 'a meter used by an automation') },
  { path: 'fixtures.meterInMetersDisabledOrg', what: 'an active meter of the organization of keys.moduleDisabled.meters (a run archives it)', unlocks: 'MODULE-001, MODULE-005', placeholders: id('fixtures.meterInMetersDisabledOrg', 'a meter of the Meters-disabled organization') },
  { path: 'fixtures.workOrderWithUnavailableLink', what: 'a work order whose previous or next work order is soft-deleted', unlocks: 'WO-010', placeholders: id('fixtures.workOrderWithUnavailableLink', 'a work order') },
  { path: 'fixtures.expenseUnderPreviousCurrency', what: 'an expense entry of the main organization recorded under a currency other than the current one', unlocks: 'EXP-015', placeholders: { 'fixtures.expenseUnderPreviousCurrency': { workOrderId: '<id of the work order>', costId: '<id of the expense entry>', currency: '<its currency, e.g. EUR>' } } },
  { path: 'fixtures.expenseInCostTrackingDisabledOrg', what: 'an active expense entry of the organization of keys.costTrackingDisabled, recorded before cost tracking was disabled (a run retires it), and an active user of that organization', unlocks: 'EXP-010, EXP-013', placeholders: { 'fixtures.expenseInCostTrackingDisabledOrg': { workOrderId: '<id of the work order>', costId: '<id of the expense entry>', userId: '<id of an active user>' } } },
  { path: 'fixtures.stockedParts', what: 'parts stocked at locations of the main organization: 20+ part/location pairs with 50+ units each', unlocks: 'PARTS-*, WIRE-007', placeholders: { 'fixtures.stockedParts': [{ partId: '<id of the part>', locationId: '<id of the location>' }] } },
  { path: 'fixtures.partsModuleDisabledStock', what: 'a part and location of the organization of keys.moduleDisabled.parts_inventory', unlocks: 'MODULE-006, MODULE-007, PARTS-023', placeholders: stock('fixtures.partsModuleDisabledStock') },
  { path: 'fixtures.restrictedSettingsStock', what: 'a stocked part and location of the organization of keys.restrictedSettings', unlocks: 'PARTS-022', placeholders: stock('fixtures.restrictedSettingsStock') },
  { path: 'bodies.<operation>', what: 'fields your implementation requires in bodies the description does not show (createMeter, createMeterReading, createWorkOrder, createCompatWorkOrder)', unlocks: '—', placeholders: {} },
];

/** Every concrete profile path a row stands for (`keys.scopes.meters:read`, …). */
export const PROFILE_PATHS: readonly string[] = PROVISIONING.flatMap((e) => Object.keys(e.placeholders));

/** The row a concrete profile path belongs to. */
export function entryOf(path: string): ProvisioningEntry {
  return PROVISIONING.find((e) => path in e.placeholders)!;
}

/** The comment the starter profile gives a path: what to provision and what it unlocks. */
export function commentOf(path: string): string {
  const e = entryOf(path);
  return `Provision ${e.what}. Unlocks: ${e.unlocks}.`;
}

const SCHEMA_REF = './node_modules/mms-conformance-kit/spec/target-profile.schema.json';
const HEAD = 'Fill in what you provisioned, export the env: variables, then run: mms-conformance profile check --profile FILE. An entry left out leaves its tests not assessed.';

/** Sets `value` at dotted `path` under `root` (`keys.scopes.meters:read`: the scope is the last member). */
function put(root: Record<string, unknown>, path: string, value: unknown, comment?: string): void {
  const parts = path.split('.');
  let node = root;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  if (comment) node[`$comment:${parts.at(-1)!}`] = comment;
  node[parts.at(-1)!] = value;
}

/**
 * The starter profile of `profile init` (docs/vendors.md, "Certifying your implementation"). Short (the
 * default): the roles and fixtures a first run needs (entries marked `starter`), one `$comment` per
 * section naming what each entry is. `full`: every role and fixture, each preceded by its own
 * `"$comment:<name>"`. Keys are `env:` references named by keyEnvName; spec/target-profile.schema.json
 * allows the `$comment` members and the profile loader drops them.
 */
export function starterProfile(full = false): Record<string, unknown> {
  const root: Record<string, unknown> = {
    $schema: SCHEMA_REF,
    $comment: full ? `Every role and fixture the suite can use (mms-conformance profile init --full). ${HEAD}` : `Starter target profile (mms-conformance profile init; --full lists every role and fixture). ${HEAD}`,
    name: 'My implementation',
    baseUrl: 'https://mms.example.com/v1',
  };
  if (full) {
    for (const path of PROFILE_PATHS) put(root, path, entryOf(path).placeholders[path], commentOf(path));
    return root;
  }
  const chosen = PROVISIONING.filter((e) => e.starter);
  const section = (name: string, intro: string) => {
    const rows = chosen.filter((e) => e.path.startsWith(`${name}.`));
    root[name] = { $comment: `${intro} ${rows.map((e) => `${e.path.slice(name.length + 1)}: ${e.what}.`).join(' ')}` };
    for (const e of rows) for (const [path, value] of Object.entries(e.placeholders)) put(root, path, value);
  };
  section('keys', 'Keys as env:VARIABLE, exported before a run (never the key itself).');
  section('fixtures', 'Ids of records the target already holds.');
  return root;
}

/** The provisioning table of docs/vendors.md (markdown), one row per entry. */
export function provisioningTable(): string {
  const rows = PROVISIONING.map((e) => `| \`${e.path}\` | ${e.what} | ${e.unlocks} |`);
  return ['| profile entry | what to provision | unlocks |', '|---|---|---|', ...rows].join('\n');
}
