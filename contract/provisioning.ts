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
}

/** The 18 scopes of the API description's Authentication section, in its order. */
export const SCOPES = [
  'work_orders:read', 'work_orders:write', 'work_requests:read', 'work_requests:write',
  'work_request_portals:read', 'work_request_portals:write', 'assets:read', 'assets:write',
  'locations:read', 'locations:write', 'parts:read', 'parts:write', 'meters:read', 'meters:write',
  'identifiers:read', 'identifiers:write', 'custom_fields:read', 'custom_fields:write',
] as const;

const envName = (path: string) => `MMS_${path.replace(/^keys\./, 'KEY_').replace(/[^A-Za-z0-9]+/g, '_').replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`;
const key = (path: string) => ({ [path]: `env:${envName(path)}` });
const id = (path: string, what: string) => ({ [path]: `<id of ${what}>` });
const stock = (path: string) => ({ [path]: { partId: '<id of the part>', locationId: '<id of the location>' } });

/** Every role and fixture of the target profile, in the order of docs/vendors.md's table. */
export const PROVISIONING: readonly ProvisioningEntry[] = [
  { path: 'keys.live', what: 'one or more full-scope `sk_live_` keys of the main organization (every module on, cost tracking on); more keys spread the suite\'s load over more rate budgets', unlocks: 'almost everything', placeholders: { 'keys.live': ['env:MMS_KEY_LIVE'] } },
  { path: 'keys.test', what: 'a full-scope `sk_test_` key of the main organization', unlocks: 'AUTH-010, RATE-002', placeholders: key('keys.test') },
  { path: 'keys.otherOrg', what: 'a full-scope key of a second organization', unlocks: 'TENANT-*, cursor binding (PAGE-*)', placeholders: key('keys.otherOrg') },
  { path: 'keys.revoked', what: 'a revoked key of the main organization', unlocks: 'AUTH-008, AUTH-009', placeholders: key('keys.revoked') },
  { path: 'keys.expired', what: 'an expired key of the main organization', unlocks: 'AUTH-008, AUTH-009', placeholders: key('keys.expired') },
  { path: 'keys.noScopes', what: 'a valid key of the main organization with no scopes', unlocks: 'SCOPE-004, REQID-002', placeholders: key('keys.noScopes') },
  { path: 'keys.scopes.<scope>', what: 'one key of the main organization per single scope (18), holding that scope only', unlocks: 'SCOPE-001..003, SCOPE-010..019', placeholders: Object.assign({}, ...SCOPES.map((s) => ({ [`keys.scopes.${s}`]: `env:MMS_KEY_SCOPE_${s.replace(':', '_').toUpperCase()}` }))) },
  { path: 'keys.allScopesExcept.<scope>', what: 'one key of the main organization per scope (18), holding every scope but that one; without them the suite falls back to sending every operation with every other single-scope key (about 15 times the requests)', unlocks: 'SCOPE-002, SCOPE-005 in one request per operation', placeholders: Object.assign({}, ...SCOPES.map((s) => ({ [`keys.allScopesExcept.${s}`]: `env:MMS_KEY_ALL_SCOPES_EXCEPT_${s.replace(':', '_').toUpperCase()}` }))) },
  { path: 'keys.moduleDisabled.<module>', what: 'a full-scope key of an organization with that module disabled (parts_inventory, meters, requests, request_portals)', unlocks: 'MODULE-*', placeholders: Object.assign({}, ...MODULES.map((m) => key(`keys.moduleDisabled.${m}`))) },
  { path: 'keys.costTrackingDisabled', what: 'a full-scope key of an organization with cost tracking off', unlocks: 'EXP-010, EXP-013, EXP-019, PARTS-004', placeholders: key('keys.costTrackingDisabled') },
  { path: 'keys.restrictedSettings', what: 'a full-scope key of an organization whose staging settings hide kitted and staged, without unit-cost overrides', unlocks: 'PARTS-022, PARTS-025', placeholders: key('keys.restrictedSettings') },
  { path: 'keys.rateLimit.live', what: 'an `sk_live_` key used by nothing else: the rate-limit tests spend its budget', unlocks: 'RATE-003..006, RATE-009..011', placeholders: key('keys.rateLimit.live') },
  { path: 'keys.rateLimit.test', what: 'an `sk_test_` key used by nothing else: the rate-limit tests spend its budget', unlocks: 'RATE-005..007, RATE-009', placeholders: key('keys.rateLimit.test') },
  { path: 'fixtures.activeUserId', what: 'an active user of the main organization', unlocks: 'EXP-003..008, EXP-016, EXP-018, WO-008', placeholders: id('fixtures.activeUserId', 'an active user') },
  { path: 'fixtures.inactiveUserId', what: 'a deactivated user of the main organization', unlocks: 'EXP-009', placeholders: id('fixtures.inactiveUserId', 'a deactivated user') },
  { path: 'fixtures.otherOrgUserId', what: 'an active user of the second organization', unlocks: 'EXP-009, TENANT-004', placeholders: id('fixtures.otherOrgUserId', 'a user of the second organization') },
  { path: 'fixtures.teamId', what: 'a team of the main organization', unlocks: 'WO-008', placeholders: id('fixtures.teamId', 'a team') },
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

/**
 * The starter profile of `profile init`: every role and fixture with a placeholder (keys as `env:` names),
 * each preceded by `"$comment:<name>"` (spec/target-profile.schema.json allows `$comment` members; the
 * profile loader drops them).
 */
export function starterProfile(): Record<string, unknown> {
  const root: Record<string, unknown> = {
    $schema: './node_modules/mms-conformance-kit/spec/target-profile.schema.json',
    $comment: 'Starter target profile (mms-conformance profile init). Fill in what you provisioned, export the env: keys, remove what you cannot provide (its tests are then not assessed), then run: mms-conformance profile check --profile FILE.',
    name: 'My implementation',
    baseUrl: 'https://mms.example.com/v1',
  };
  for (const path of PROFILE_PATHS) {
    const parts = path.split('.');
    // `keys.scopes.meters:read`: the scope is the last member, the rest are objects.
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    const leaf = parts.at(-1)!;
    node[`$comment:${leaf}`] = commentOf(path);
    node[leaf] = entryOf(path).placeholders[path];
  }
  return root;
}

/** The provisioning table of docs/vendors.md (markdown), one row per entry. */
export function provisioningTable(): string {
  const rows = PROVISIONING.map((e) => `| \`${e.path}\` | ${e.what} | ${e.unlocks} |`);
  return ['| profile entry | what to provision | unlocks |', '|---|---|---|', ...rows].join('\n');
}
