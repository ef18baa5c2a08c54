/**
 * `mms-conformance profile check` (docs/vendors.md): proves a target's
 * provisioning before any test, with reads only and writes that cannot succeed, so the target's data is
 * never changed. Rules come from the API description's Authentication section: each prefix's bucket
 * (`X-RateLimit-Limit` 1000 for sk_live_, 100 for sk_test_), 401 `invalid_api_key` for revoked and
 * expired keys, exact scopes (403 `insufficient_scope`), disabled modules (403 `module_disabled`), and
 * tenant isolation (another organization's id answers 404).
 */
import { request, type APIRequestContext } from '@playwright/test';
import { requestUse, type RequestUse, type TargetProfile } from '../contract/profile.ts';
import { MODULES, type Module } from '../contract/openapi.ts';
import { PROFILE_PATHS, SCOPES } from '../contract/provisioning.ts';
import { printable } from '../contract/printable.ts';
import { Redactor } from '../contract/redact.ts';

/** The finding for one profile entry: `ok`, `wrong` (with why) or `missing` (not in the profile). */
export interface CheckLine { path: string; status: 'ok' | 'wrong' | 'missing'; detail?: string }

/** The whole check: one line per entry and the number of requests it sent. */
export interface CheckResult { lines: CheckLine[]; requests: number }

/** The read each scope grants (a list, module-free where the scope allows). */
export const SCOPE_READS: Record<string, string> = {
  'work_orders:read': '/work-orders?limit=1', 'work_requests:read': '/workrequests?limit=1',
  'work_request_portals:read': '/workrequestportals?limit=1', 'assets:read': '/assets?limit=1',
  'locations:read': '/locations?limit=1', 'parts:read': '/parts?limit=1', 'meters:read': '/meters?limit=1',
  'identifiers:read': '/identifiers?limit=1', 'custom_fields:read': '/customfields/assets',
};

/** A create of each write scope; its body `[]` can never be valid, so no answer may be a 2xx. */
export const SCOPE_WRITES: Record<string, string> = {
  'work_orders:write': '/work-orders', 'work_requests:write': '/workrequests', 'work_request_portals:write': '/workrequestportals',
  'assets:write': '/assets', 'locations:write': '/locations', 'parts:write': '/parts', 'meters:write': '/meters',
  'identifiers:write': '/identifiers', 'custom_fields:write': '/customfields/assets',
};

/** The read of each module's family. */
export const MODULE_READS: Record<Module, string> = {
  parts_inventory: '/parts?limit=1', meters: '/meters?limit=1', requests: '/workrequests?limit=1', request_portals: '/workrequestportals?limit=1',
};

interface Answer { status: number; code?: string; limit?: string; body?: unknown }

/** How long one probe (its whole answer) may take, in ms; a target slower than this is unreachable for the check. */
export const PROBE_TIMEOUT_MS = 10_000;

class Prober {
  requests = 0;
  private context?: Promise<APIRequestContext>;
  /** `use`: the profile's headers, TLS and proxy, as the suite sends them. */
  constructor(private readonly baseUrl: string, private readonly use: RequestUse = {}, private readonly timeoutMs = PROBE_TIMEOUT_MS) {}

  async send(key: string, path: string, method = 'GET'): Promise<Answer> {
    this.requests++;
    this.context ??= request.newContext(this.use);
    const res = await (await this.context).fetch(`${this.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
      data: method === 'GET' ? undefined : '[]',
      failOnStatusCode: false,
      maxRedirects: 0,
      timeout: this.timeoutMs,
    });
    const text = await res.text();
    let body: unknown;
    try { body = JSON.parse(text); } catch { body = undefined; }
    return { status: res.status(), code: (body as { code?: string } | undefined)?.code, limit: res.headers()['x-ratelimit-limit'], body };
  }

  async dispose(): Promise<void> {
    if (this.context) await (await this.context).dispose();
  }
}

const shown = (a: Answer) => `${a.status}${a.code ? ` ${a.code}` : ''}`;
const otherRead = (scope: string) => (scope.startsWith('work_orders:') ? SCOPE_READS['meters:read']! : SCOPE_READS['work_orders:read']!);

/**
 * Runs every check against `profile` (its baseUrl, or `targetUrl`), each probe within `timeoutMs`; never
 * throws for a wrong answer. Network errors propagate (their messages may hold the request's headers:
 * see cli/profile.ts runCheck). What the target answered is in the lines with the profile's secrets
 * masked and control characters stripped (contract/printable.ts).
 */
export async function checkProvisioning(profile: TargetProfile, targetUrl = profile.baseUrl, timeoutMs = PROBE_TIMEOUT_MS): Promise<CheckResult> {
  const p = new Prober(targetUrl.replace(/\/$/, ''), requestUse(profile), timeoutMs);
  const redactor = Redactor.forProfile(profile);
  try {
    const result = await checkWith(p, profile);
    for (const line of result.lines) if (line.detail) line.detail = printable(redactor.text(line.detail), true);
    return result;
  } finally {
    await p.dispose();
  }
}

async function checkWith(p: Prober, profile: TargetProfile): Promise<CheckResult> {
  const lines: CheckLine[] = [];
  const k = profile.keys;
  const f = profile.fixtures;
  const live = k.live[0]!;
  const add = (path: string, problem: string | undefined, note?: string) => lines.push(problem ? { path, status: 'wrong', detail: problem } : { path, status: 'ok', detail: note });
  const expect = async (key: string, path: string, want: (a: Answer) => boolean, what: string, method = 'GET') => {
    const a = await p.send(key, path, method);
    return want(a) ? undefined : `${method} ${path.replace(/\?.*/, '')} answered ${shown(a)}, expected ${what}`;
  };
  const bucket = (key: string, limit: string) => expect(key, SCOPE_READS['work_orders:read']!, (a) => a.status === 200 && a.limit === limit, `200 with X-RateLimit-Limit ${limit}`);
  const refused = (code: string) => (a: Answer) => a.status === (code === 'invalid_api_key' ? 401 : 403) && a.code === code;

  const livePool: Array<string | undefined> = [];
  for (const [i, key] of k.live.entries()) livePool.push((await bucket(key, '1000'))?.replace(/^/, `keys.live[${i}]: `));
  add('keys.live', livePool.find(Boolean));
  if (k.test) add('keys.test', await bucket(k.test, '100'));
  for (const role of ['revoked', 'expired'] as const) if (k[role]) add(`keys.${role}`, await expect(k[role]!, SCOPE_READS['work_orders:read']!, refused('invalid_api_key'), '401 invalid_api_key'));
  if (k.noScopes) add('keys.noScopes', await expect(k.noScopes, SCOPE_READS['work_orders:read']!, refused('insufficient_scope'), '403 insufficient_scope'));
  for (const scope of SCOPES) {
    const key = k.scopes?.[scope];
    if (!key) continue;
    const own = scope.endsWith(':read')
      ? await expect(key, SCOPE_READS[scope]!, (a) => a.status === 200, '200')
      : await expect(key, SCOPE_WRITES[scope]!, (a) => a.status !== 401 && a.status !== 403 && (a.status < 200 || a.status > 299), 'a refusal of the invalid body (e.g. 400), not 401/403', 'POST');
    add(`keys.scopes.${scope}`, own ?? (await expect(key, otherRead(scope), refused('insufficient_scope'), '403 insufficient_scope (a key of another scope)')));
  }
  for (const scope of SCOPES) {
    const key = k.allScopesExcept?.[scope];
    if (!key) continue;
    // Lacks its scope: a read of it is refused; a write of it (a body that can never be valid) is never a success and, when refused for its scope, says so.
    const lacks = scope.endsWith(':read')
      ? await expect(key, SCOPE_READS[scope]!, refused('insufficient_scope'), '403 insufficient_scope (the one scope it lacks)')
      : await expect(key, SCOPE_WRITES[scope]!, (a) => (a.status < 200 || a.status > 299) && (a.status !== 403 || a.code === 'insufficient_scope'), '403 insufficient_scope or a refusal of the invalid body, never a success', 'POST');
    add(`keys.allScopesExcept.${scope}`, lacks ?? (await expect(key, otherRead(scope), (a) => a.status === 200, '200 (a scope it holds)')));
  }
  for (const m of MODULES) {
    const key = k.moduleDisabled?.[m];
    if (!key) continue;
    const other = MODULE_READS[m === 'meters' ? 'parts_inventory' : 'meters'];
    add(`keys.moduleDisabled.${m}`, (await expect(key, MODULE_READS[m], refused('module_disabled'), '403 module_disabled'))
      ?? (await expect(key, other, (a) => a.code !== 'module_disabled' && a.status === 200, '200 (only its own module is disabled)')));
  }
  if (k.otherOrg) {
    const ownId = f.workOrderWithUnavailableLink;
    add('keys.otherOrg', (await expect(k.otherOrg, SCOPE_READS['work_orders:read']!, (a) => a.status === 200, '200'))
      ?? (ownId ? await expect(k.otherOrg, `/work-orders/${ownId}`, (a) => a.status === 404, '404 (a work order of the main organization)') : undefined));
  }
  for (const role of ['costTrackingDisabled', 'restrictedSettings'] as const) if (k[role]) add(`keys.${role}`, await expect(k[role]!, SCOPE_READS['work_orders:read']!, (a) => a.status === 200, '200'));
  for (const [bucketName, prefix] of [['live', 'sk_live_'], ['test', 'sk_test_']] as const) {
    const key = k.rateLimit?.[bucketName];
    if (key) add(`keys.rateLimit.${bucketName}`, key.startsWith(prefix) ? undefined : `not an ${prefix} key`, 'prefix only: a request would spend the rate-limit tests\' budget');
  }
  await checkFixtures(profile, p, add, expect, live);
  for (const path of PROFILE_PATHS) if (!lines.some((l) => l.path === path)) lines.push({ path, status: 'missing' });
  const order = (path: string) => PROFILE_PATHS.indexOf(path);
  lines.sort((a, b) => order(a.path) - order(b.path));
  return { lines, requests: p.requests };
}

type Add = (path: string, problem: string | undefined, note?: string) => void;
type Expect = (key: string, path: string, want: (a: Answer) => boolean, what: string, method?: string) => Promise<string | undefined>;

async function workRequestsIn(p: Prober, key: string, status: string, ids: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  let path: string | undefined = `/workrequests?requestStatus=${status}&limit=100`;
  for (let page = 0; path && page < 20 && found.size < ids.length; page++) {
    const a = await p.send(key, path);
    const body = a.body as { workRequests?: Array<{ id: string }>; nextCursor?: string | null } | undefined;
    for (const wr of body?.workRequests ?? []) if (ids.includes(wr.id)) found.add(wr.id);
    path = body?.nextCursor ? `/workrequests?requestStatus=${status}&limit=100&cursor=${encodeURIComponent(body.nextCursor)}` : undefined;
  }
  return found;
}

async function checkFixtures(profile: TargetProfile, p: Prober, add: Add, expect: Expect, live: string): Promise<void> {
  const f = profile.fixtures;
  const k = profile.keys;
  const unread = 'no read shows it; not checked';
  for (const path of ['activeUserId', 'inactiveUserId', 'otherOrgUserId', 'teamId', 'meterInMetersDisabledOrg', 'partsModuleDisabledStock'] as const) {
    if (f[path]) add(`fixtures.${path}`, undefined, unread);
  }
  if (f.assetId) add('fixtures.assetId', await expect(live, `/assets/${f.assetId}`, (a) => a.status === 200, '200'));
  if (f.locationId) add('fixtures.locationId', await expect(live, `/locations/${f.locationId}`, (a) => a.status === 200, '200'));
  if (f.rejectedWorkRequestId) {
    const found = await workRequestsIn(p, live, 'REJECTED', [f.rejectedWorkRequestId]);
    add('fixtures.rejectedWorkRequestId', found.size ? undefined : `${f.rejectedWorkRequestId} is not among the REJECTED work requests`);
  }
  if (f.pendingWorkRequestIds?.length) {
    const found = await workRequestsIn(p, live, 'PENDING', f.pendingWorkRequestIds);
    const gone = f.pendingWorkRequestIds.filter((id) => !found.has(id));
    add('fixtures.pendingWorkRequestIds', gone.length ? `not PENDING (consumed by an earlier run?): ${gone.join(', ')}` : undefined);
  }
  if (f.meterUsedByAutomation) add('fixtures.meterUsedByAutomation', await expect(live, `/meters/${f.meterUsedByAutomation}`, (a) => a.status === 200, '200'));
  if (f.workOrderWithUnavailableLink) add('fixtures.workOrderWithUnavailableLink', await expect(live, `/work-orders/${f.workOrderWithUnavailableLink}`, (a) => a.status === 200, '200'));
  if (f.expenseUnderPreviousCurrency) {
    const e = f.expenseUnderPreviousCurrency;
    add('fixtures.expenseUnderPreviousCurrency', await expect(live, `/work-orders/${e.workOrderId}/other-costs`, (a) => {
      const items = (a.body as { items?: Array<{ id: string; currency: string }> } | undefined)?.items ?? [];
      return a.status === 200 && items.some((i) => i.id === e.costId && i.currency === e.currency);
    }, `200 listing ${e.costId} in ${e.currency}`));
  }
  if (f.expenseInCostTrackingDisabledOrg) {
    const e = f.expenseInCostTrackingDisabledOrg;
    add('fixtures.expenseInCostTrackingDisabledOrg', k.costTrackingDisabled
      ? await expect(k.costTrackingDisabled, `/work-orders/${e.workOrderId}`, (a) => a.status === 200, '200 (its work order, with keys.costTrackingDisabled)')
      : undefined, k.costTrackingDisabled ? undefined : unread);
  }
  if (f.stockedParts?.length) {
    let problem: string | undefined;
    for (const part of new Set(f.stockedParts.map((s) => s.partId))) problem ??= await expect(live, `/parts/${part}`, (a) => a.status === 200, '200');
    add('fixtures.stockedParts', problem);
  }
  if (f.restrictedSettingsStock && k.restrictedSettings) {
    add('fixtures.restrictedSettingsStock', await expect(k.restrictedSettings, `/parts/${f.restrictedSettingsStock.partId}`, (a) => a.status === 200, '200 (with keys.restrictedSettings)'));
  } else if (f.restrictedSettingsStock) add('fixtures.restrictedSettingsStock', undefined, unread);
}

/** The report as printed: `<path> ok`, `<path> wrong: why`, `<path> missing`, one a line; then the requests spent. */
export function formatCheck(result: CheckResult): string {
  const width = Math.max(...result.lines.map((l) => l.path.length));
  const line = (l: CheckLine) => `${l.path.padEnd(width)}  ${l.status}${l.detail ? (l.status === 'wrong' ? `: ${l.detail}` : ` (${l.detail})`) : ''}`;
  return `${result.lines.map(line).join('\n')}\n${result.requests} requests sent\n`;
}

/** The wrong lines of a result. */
export function wrongLines(result: CheckResult): CheckLine[] {
  return result.lines.filter((l) => l.status === 'wrong');
}
