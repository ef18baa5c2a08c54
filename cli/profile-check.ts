/**
 * `mms-conformance profile check` (docs/vendors.md, "Checking the profile"): proves a target's
 * provisioning before any test, with reads only and writes that cannot succeed, so the target's data is
 * never changed. Rules come from the API description: each prefix's bucket (Authentication 2,
 * `X-RateLimit-Limit` 1000 for sk_live_, 100 for sk_test_), 401 `invalid_api_key` for revoked and
 * expired keys (Errors), exact scopes (403 `insufficient_scope`), disabled modules (403
 * `module_disabled`), tenant isolation (another organization's id answers 404).
 *
 * Every request goes only through what the description describes (contract/described-routes.ts): an
 * entry that only an inferred route or parameter could check is `unverified`, with which and why, and
 * never `wrong`. Each message says what was observed, nothing more.
 */
import { request, type APIRequestContext } from '@playwright/test';
import { requestUse, type RequestUse, type TargetProfile } from '../contract/profile.ts';
import { MODULES, type Module } from '../contract/openapi.ts';
import { PROFILE_PATHS, SCOPES } from '../contract/provisioning.ts';
import { undescribed } from '../contract/described-routes.ts';
import { checkFixtures } from './profile-check-fixtures.ts';
import { printable } from '../contract/printable.ts';
import { Redactor } from '../contract/redact.ts';
import type { Add, Answer, CheckLine, CheckResult, Finding, Look, Probe, Read } from './profile-check-model.ts';

export type { Add, Answer, CheckLine, CheckResult, Finding, Look, Probe, Read };


/** The read each scope grants (a list; module-free where the scope allows). Some routes are inferred: those keys stay unverified. */
export const SCOPE_READS: Record<string, string> = {
  'work_orders:read': '/work-orders?limit=1', 'work_requests:read': '/workrequests?limit=1',
  'work_request_portals:read': '/workrequestportals?limit=1', 'assets:read': '/assets?limit=1',
  'locations:read': '/locations?limit=1', 'parts:read': '/parts?limit=1', 'meters:read': '/meters?limit=1',
  'identifiers:read': '/identifiers?limit=1', 'custom_fields:read': '/customfields/assets',
};

/**
 * A write of each write scope that can never succeed: a create whose body `[]` no described body
 * allows, or (custom fields, whose create body is not shown) a DELETE of id 0, outside the stated
 * 1..2147483647. No answer may be a 2xx.
 */
export const SCOPE_WRITES: Record<string, Probe> = {
  'work_orders:write': { method: 'POST', url: '/work-orders', body: '[]' }, 'work_requests:write': { method: 'POST', url: '/workrequests', body: '[]' },
  'work_request_portals:write': { method: 'POST', url: '/workrequestportals', body: '[]' }, 'assets:write': { method: 'POST', url: '/assets', body: '[]' },
  'locations:write': { method: 'POST', url: '/locations', body: '[]' }, 'parts:write': { method: 'POST', url: '/parts', body: '[]' },
  'meters:write': { method: 'POST', url: '/meters', body: '[]' }, 'identifiers:write': { method: 'POST', url: '/identifiers', body: '[]' },
  'custom_fields:write': { method: 'DELETE', url: '/customfields/assets/0' },
};

/** A described read of each module's family (Parts Inventory: the custom fields of the `parts` entity, MODULE-004). */
export const MODULE_READS: Record<Module, string> = {
  parts_inventory: '/customfields/parts', meters: '/meters?limit=1', requests: '/workrequests?limit=1', request_portals: '/workrequestportals?limit=1',
};


/** How long one probe (its whole answer) may take, in ms; a target slower than this is unreachable for the check. */
export const PROBE_TIMEOUT_MS = 10_000;

class Prober {
  requests = 0;
  private context?: Promise<APIRequestContext>;
  /** `use`: the profile's headers, TLS and proxy, as the suite sends them. */
  constructor(private readonly baseUrl: string, private readonly use: RequestUse = {}, private readonly timeoutMs = PROBE_TIMEOUT_MS) {}

  async send(key: string, probe: Probe): Promise<Answer> {
    this.requests++;
    this.context ??= request.newContext(this.use);
    const res = await (await this.context).fetch(`${this.baseUrl}${probe.url}`, {
      method: probe.method,
      headers: { authorization: `Bearer ${key}`, ...(probe.body === undefined ? {} : { 'content-type': 'application/json' }) },
      data: probe.body,
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
const success = (a: Answer) => a.status >= 200 && a.status <= 299;

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
  const add: Add = (path, ...findings) => {
    const wrong = [...new Set(findings.flatMap((f) => ('wrong' in f ? [f.wrong] : [])))];
    const unverified = [...new Set(findings.flatMap((f) => ('unverified' in f ? [f.unverified] : [])))];
    const notes = findings.flatMap((f) => ('ok' in f && f.ok ? [f.ok] : []));
    if (wrong.length) lines.push({ path, status: 'wrong', detail: wrong.join('; ') });
    else if (unverified.length) lines.push({ path, status: 'unverified', detail: unverified.join('; ') });
    else lines.push({ path, status: 'ok', ...(notes.length ? { detail: notes.join('; ') } : {}) });
  };
  const read: Read = async (key, url) => {
    const why = undescribed('GET', url);
    return why ? { unverified: `could be checked only through ${why}` } : p.send(key, { method: 'GET', url });
  };
  const look: Look = async (key, probe, want, what) => {
    const { method, url, body } = typeof probe === 'string' ? { method: 'GET', url: probe, body: undefined } : probe;
    const why = undescribed(method, url);
    if (why) return { unverified: `could be checked only through ${why}` };
    const a = await p.send(key, { method, url, body });
    return want(a) ? { ok: undefined } : { wrong: `${method} ${url.replace(/\?.*/, '')} answered ${shown(a)}, expected ${what}` };
  };
  const workOrders = SCOPE_READS['work_orders:read']!;
  const bucket = (key: string, limit: string) => look(key, workOrders, (a) => a.status === 200 && a.limit === limit, `200 with X-RateLimit-Limit ${limit}`);
  const refused = (code: string) => (a: Answer) => a.status === (code === 'invalid_api_key' ? 401 : 403) && a.code === code;

  const live: Finding[] = [];
  for (const [i, key] of k.live.entries()) {
    const f = await bucket(key, '1000');
    live.push('wrong' in f ? { wrong: `keys.live[${i}]: ${f.wrong}` } : f);
  }
  add('keys.live', ...live);
  if (k.test) add('keys.test', await bucket(k.test, '100'));
  for (const role of ['revoked', 'expired'] as const) if (k[role]) add(`keys.${role}`, await look(k[role]!, workOrders, refused('invalid_api_key'), '401 invalid_api_key'));
  if (k.noScopes) add('keys.noScopes', await look(k.noScopes, workOrders, refused('insufficient_scope'), '403 insufficient_scope'));
  for (const scope of SCOPES) {
    const key = k.scopes?.[scope];
    if (!key) continue;
    const own = scope.endsWith(':read')
      ? await look(key, SCOPE_READS[scope]!, (a) => a.status === 200, '200')
      : await look(key, SCOPE_WRITES[scope]!, (a) => a.status !== 401 && a.status !== 403 && !success(a), 'a refusal of the invalid request (e.g. 400), not 401/403');
    add(`keys.scopes.${scope}`, own, await look(key, otherRead(scope), refused('insufficient_scope'), '403 insufficient_scope (a key of another scope)'));
  }
  for (const scope of SCOPES) {
    const key = k.allScopesExcept?.[scope];
    if (!key) continue;
    // Lacks its scope: a read of it is refused; a write of it (a request that can never be valid) is never a success and, when refused for its scope, says so.
    const lacks = scope.endsWith(':read')
      ? await look(key, SCOPE_READS[scope]!, refused('insufficient_scope'), '403 insufficient_scope (the one scope it lacks)')
      : await look(key, SCOPE_WRITES[scope]!, (a) => !success(a) && (a.status !== 403 || a.code === 'insufficient_scope'), '403 insufficient_scope or a refusal of the invalid request, never a success');
    add(`keys.allScopesExcept.${scope}`, lacks, await look(key, otherRead(scope), (a) => a.status === 200, '200 (a scope it holds)'));
  }
  for (const m of MODULES) {
    const key = k.moduleDisabled?.[m];
    if (!key) continue;
    const other = MODULE_READS[m === 'meters' ? 'parts_inventory' : 'meters'];
    add(`keys.moduleDisabled.${m}`, await look(key, MODULE_READS[m], refused('module_disabled'), '403 module_disabled'),
      await look(key, other, (a) => a.code !== 'module_disabled' && a.status === 200, '200 (only its own module is disabled)'));
  }
  if (k.otherOrg) {
    const ownId = profile.fixtures.workOrderWithUnavailableLink;
    add('keys.otherOrg', await look(k.otherOrg, workOrders, (a) => a.status === 200, '200'),
      ...(ownId ? [await look(k.otherOrg, `/work-orders/${encodeURIComponent(ownId)}`, (a) => a.status === 404, '404 (a work order of the main organization)')] : []));
  }
  for (const role of ['costTrackingDisabled', 'restrictedSettings'] as const) if (k[role]) add(`keys.${role}`, await look(k[role]!, workOrders, (a) => a.status === 200, '200'));
  for (const [bucketName, prefix] of [['live', 'sk_live_'], ['test', 'sk_test_']] as const) {
    const key = k.rateLimit?.[bucketName];
    if (key) add(`keys.rateLimit.${bucketName}`, key.startsWith(prefix) ? { ok: 'prefix only: a request would spend the rate-limit tests\' budget' } : { wrong: `not an ${prefix} key` });
  }
  await checkFixtures(profile, { add, look, read });
  for (const path of PROFILE_PATHS) if (!lines.some((l) => l.path === path)) lines.push({ path, status: 'missing' });
  const order = (path: string) => PROFILE_PATHS.indexOf(path);
  lines.sort((a, b) => order(a.path) - order(b.path));
  return { lines, requests: p.requests };
}

/** The report as printed: `<path> ok`, `<path> wrong: why`, `<path> unverified: why`, `<path> missing`, one a line; then the requests spent. */
export function formatCheck(result: CheckResult): string {
  const width = Math.max(...result.lines.map((l) => l.path.length));
  const line = (l: CheckLine) => `${l.path.padEnd(width)}  ${l.status}${l.detail ? (l.status === 'ok' ? ` (${l.detail})` : `: ${l.detail}`) : ''}`;
  const unverified = result.lines.filter((l) => l.status === 'unverified').length;
  const note = unverified ? `${unverified} unverified: only a route or parameter the description does not show could check them; they never refuse a run\n` : '';
  return `${result.lines.map(line).join('\n')}\n${note}${result.requests} requests sent\n`;
}

/** The wrong lines of a result: the only ones that refuse a run. */
export function wrongLines(result: CheckResult): CheckLine[] {
  return result.lines.filter((l) => l.status === 'wrong');
}
