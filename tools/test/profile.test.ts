/**
 * `profile init` and `profile check` (docs/vendors.md): the starter profile and the provisioning table
 * of docs/vendors.md come from contract/provisioning.ts; the check passes the mock's own profile entry
 * by entry and names exactly the entry that is wrong.
 */
import { test, expect } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import { profileProblems, parseProfile } from '../../contract/profile.ts';
import { keyEnvName, PROFILE_PATHS, starterProfile } from '../../contract/provisioning.ts';
import { secretEnvNames } from '../../suites/lib/redact.ts';
import { PROVISIONING_PAGE, provisioningBlock } from '../../contract/readme-table.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { cliRun } from './run-cli.ts';
import { operationFor, undescribed } from '../../contract/described-routes.ts';

test.setTimeout(120_000);
let mock: RunningMock;
test.beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
test.afterAll(async () => mock.stop());

const dir = mkdtempSync(join(tmpdir(), 'profile-cli-'));
const entryLine = (output: string, path: string) => output.split('\n').find((l) => l.startsWith(`${path} `));

test('the provisioning table of docs/vendors.md is the one contract/provisioning.ts generates', () => {
  expect(readFileSync(resolve(ROOT, PROVISIONING_PAGE), 'utf8')).toContain(provisioningBlock());
});

test('profile init writes a short starter: at most 60 lines, schema-valid, one $comment per section, keys named by the one scheme', async () => {
  const file = join(dir, 'short.json');
  const { code } = await cliRun(['profile', 'init', '--output', file]);
  expect(code).toBe(0);
  const text = readFileSync(file, 'utf8');
  expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(60);
  const starter = JSON.parse(text);
  expect(profileProblems(starter)).toEqual([]);
  expect(text).not.toContain('"$comment:');
  for (const section of [starter, starter.keys, starter.fixtures]) expect(section.$comment).toEqual(expect.any(String));
  expect(Object.keys(starter.keys).filter((k) => k !== '$comment')).toEqual(['live', 'test', 'otherOrg', 'revoked', 'noScopes']);
  for (const [role, value] of Object.entries(starter.keys).filter(([k]) => k !== '$comment')) {
    for (const [i, ref] of ([] as unknown[]).concat(value).entries()) expect(ref).toBe(`env:${keyEnvName(`keys.${role}`, i)}`);
  }
  expect(starter.keys.live).toEqual(['env:MMS_KEY_LIVE']);
  // Every unset variable in one line, not one per attempt.
  expect(() => parseProfile(text, file, {})).toThrow('the profile names 5 variables that are not set: MMS_KEY_LIVE MMS_KEY_TEST MMS_KEY_OTHER_ORG MMS_KEY_REVOKED MMS_KEY_NO_SCOPES');
});

test('every env: variable of the example profile and of profile init --full follows the one naming scheme', () => {
  const full = starterProfile(true) as { keys: unknown };
  const example = JSON.parse(readFileSync(resolve(ROOT, 'examples/target-profile.example.json'), 'utf8')) as { keys: unknown };
  const refs = (node: unknown, path: string[]): Array<[string, string]> => {
    if (typeof node === 'string') return node.startsWith('env:') ? [[node.slice(4), path.join('.')]] : [];
    if (Array.isArray(node)) return node.flatMap((n, i) => refs(n, [...path, `#${i}`]));
    if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => refs(v, [...path, k]));
    return [];
  };
  const all = [...refs(full.keys, ['keys']), ...refs(example.keys, ['keys'])];
  expect(all.length).toBeGreaterThan(50);
  for (const [name, path] of all) {
    const index = /\.#(\d+)$/.exec(path);
    expect(name, path).toBe(keyEnvName(path.replace(/\.#\d+$/, ''), index ? Number(index[1]) : 0));
  }
  // The names the reports' curl lines use are the same.
  const resolved = JSON.parse(JSON.stringify(example.keys).replace(/"env:(\w+)"/g, '"sk_live_$1"'));
  for (const [secret, name] of secretEnvNames({ keys: resolved })) if (!/LIVE_\d$/.test(secret)) expect(secret).toBe(`sk_live_${name}`);
  // A copied example's $schema points into the installed package.
  expect(JSON.parse(readFileSync(resolve(ROOT, 'examples/target-profile.example.json'), 'utf8')).$schema).toBe('./node_modules/mms-conformance-kit/spec/target-profile.schema.json');
});

test('profile init --full writes a schema-valid profile with every role and fixture, each with its $comment', async () => {
  const file = join(dir, 'starter.json');
  const { code } = await cliRun(['profile', 'init', '--full', '--output', file]);
  expect(code).toBe(0);
  const starter = JSON.parse(readFileSync(file, 'utf8'));
  expect(profileProblems(starter)).toEqual([]);
  for (const path of PROFILE_PATHS) {
    const parts = path.split('.');
    const parent = parts.slice(0, -1).reduce((n, p) => n[p], starter);
    expect(parent, path).toHaveProperty([parts.at(-1)!]);
    expect(parent[`$comment:${parts.at(-1)}`], path).toMatch(/^Provision .+ Unlocks: .+/);
  }
  // The comments never reach the suite: the scopes map holds scopes only.
  const env = Object.fromEntries(JSON.stringify(starter).match(/MMS_[A-Z0-9_]+/g)!.map((n) => [n, 'sk_live_x']));
  expect(Object.keys(parseProfile(JSON.stringify(starter), file, env).keys.scopes!)).toHaveLength(18);
  expect((await cliRun(['profile', 'init', '--full', '--output', file])).code).toBe(2);
});

/** The entries of the mock's profile that only an inferred route (or no route at all) could check. */
const UNVERIFIABLE = [
  ...['work_requests:write', 'work_request_portals:write', 'assets:write', 'locations:read', 'locations:write', 'parts:read', 'parts:write', 'identifiers:read', 'identifiers:write']
    .flatMap((s) => [`keys.scopes.${s}`, `keys.allScopesExcept.${s}`]),
  'fixtures.activeUserId', 'fixtures.inactiveUserId', 'fixtures.otherOrgUserId', 'fixtures.teamId', 'fixtures.locationId',
  'fixtures.meterInMetersDisabledOrg', 'fixtures.stockedParts', 'fixtures.partsModuleDisabledStock', 'fixtures.restrictedSettingsStock',
];

test("profile check calls every entry of the mock's profile ok, or unverified where only an inferred route could check it", async () => {
  const file = join(dir, 'mock.json');
  writeFileSync(file, JSON.stringify(mock.profile));
  const { code, output } = await cliRun(['profile', 'check', '--profile', file]);
  for (const path of PROFILE_PATHS) {
    expect(entryLine(output, path), path).toMatch(UNVERIFIABLE.includes(path) ? /^\S+\s+unverified: \S/ : /^\S+\s+ok\b/);
  }
  // Which route, and why: the route of the scope's own read, named as the description would.
  expect(entryLine(output, 'keys.scopes.parts:read')).toMatch(/unverified: could be checked only through GET \/parts: the description does not show this route$/);
  expect(entryLine(output, 'fixtures.teamId')).toMatch(/unverified: teams have no public route in the description/);
  expect(output).toMatch(new RegExp(`^${UNVERIFIABLE.length} unverified: only a route or parameter the description does not show could check them; they never refuse a run$`, 'm'));
  expect(output).toMatch(/^\d+ requests sent$/m);
  expect(code).toBe(0);
  // run calls the same check: unverified entries never refuse it.
  const run = await cliRun(['run', '--profile', file, '--grep', '@METER-012\\b', '--output', join(dir, 'unverified-run')]);
  expect(run.output).not.toContain('provisioning error');
  expect(run.output).toContain('Conformance:');
  expect(run.code).not.toBe(2);
});

test('profile check says missing for an entry the profile leaves out, and exits 0', async () => {
  const profile = structuredClone(mock.profile) as unknown as { keys: Record<string, unknown>; fixtures: Record<string, unknown> };
  delete profile.keys.test;
  delete profile.fixtures.assetId;
  const file = join(dir, 'missing.json');
  writeFileSync(file, JSON.stringify(profile));
  const { code, output } = await cliRun(['profile', 'check', '--profile', file]);
  expect(entryLine(output, 'keys.test')).toMatch(/^keys\.test\s+missing$/);
  expect(entryLine(output, 'fixtures.assetId')).toMatch(/^fixtures\.assetId\s+missing$/);
  expect(output).not.toMatch(/\swrong: /);
  expect(code).toBe(0);
});

test('profile check says what it observed of work requests, through the unfiltered described list', async () => {
  const profile = structuredClone(mock.profile) as unknown as { fixtures: { rejectedWorkRequestId: string; pendingWorkRequestIds: string[] } };
  const rejected = profile.fixtures.rejectedWorkRequestId;
  profile.fixtures.pendingWorkRequestIds = [rejected];
  profile.fixtures.rejectedWorkRequestId = 'wr_neverprovisioned';
  const file = join(dir, 'work-requests.json');
  writeFileSync(file, JSON.stringify(profile));
  const { code, output } = await cliRun(['profile', 'check', '--profile', file]);
  expect(entryLine(output, 'fixtures.pendingWorkRequestIds')).toMatch(new RegExp(`wrong: ${rejected} is REJECTED in GET /workrequests, not PENDING$`));
  expect(entryLine(output, 'fixtures.rejectedWorkRequestId')).toMatch(/wrong: GET \/workrequests does not list wr_neverprovisioned \(\d+ read, every page\)$/);
  // Only what was observed: no guess at how it came to be, no filter the description does not name.
  expect(output).not.toMatch(/consumed|earlier run|among the REJECTED|requestStatus=/);
  expect(code).toBe(1);
});

test('a route or query parameter marked x-inferred is not described; the described ones are', () => {
  expect(undescribed('GET', '/work-orders?limit=1')).toBeUndefined();
  expect(undescribed('DELETE', '/customfields/assets/0')).toBeUndefined();
  expect(undescribed('GET', '/workrequests?limit=200&cursor=abc')).toBeUndefined();
  expect(undescribed('GET', '/parts/p1')).toBe('GET /parts/{id}: the description does not show this route');
  expect(undescribed('PUT', '/assets/a1/parts/p1')).toBe('PUT /assets/{id}/parts/{partId}: the description does not show this route');
  expect(undescribed('GET', '/workrequests?requestStatus=PENDING')).toBe('GET /workrequests: the parameter requestStatus is not named by the description');
  expect(undescribed('GET', '/meters?colour=red')).toBe('GET /meters: the description has no parameter colour');
  expect(undescribed('GET', '/vendors')).toBe('GET /vendors: no operation of the description');
  // A literal segment wins over a path parameter: /identifiers/resolve is not /identifiers/{id}.
  expect(operationFor('GET', '/identifiers/resolve')?.path).toBe('/identifiers/resolve');
  expect(operationFor('DELETE', '/identifiers/resolve')?.path).toBe('/identifiers/{id}');
});

test('profile check names a full-scope key given as the meters:read key, and only it, and exits 1', async () => {
  const profile = structuredClone(mock.profile) as unknown as { keys: { live: string[]; scopes: Record<string, string> } };
  profile.keys.scopes['meters:read'] = profile.keys.live[1]!;
  const file = join(dir, 'wrong.json');
  writeFileSync(file, JSON.stringify(profile));
  const { code, output } = await cliRun(['profile', 'check', '--profile', file]);
  const wrong = output.split('\n').filter((l) => /\swrong: /.test(l));
  expect(wrong).toHaveLength(1);
  expect(wrong[0]).toMatch(/^keys\.scopes\.meters:read\s+wrong: GET \/work-orders answered 200, expected 403 insufficient_scope/);
  expect(code).toBe(1);
  // run checks first: the wrong key is a provisioning error (exit 2), and no test runs.
  const run = await cliRun(['run', '--profile', file, '--family', 'METER', '--output', join(dir, 'out')]);
  expect(run.output).toMatch(/provisioning error .*keys\.scopes\.meters:read: GET \/work-orders answered 200/);
  expect(run.output).not.toContain('Conformance:');
  expect(run.code).toBe(2);
});
