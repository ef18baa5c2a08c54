/**
 * Control routes of the mock's state (docs/integrators.md, "State and replicas"):
 * - `GET /__mock/state[?org=ID]`: every organization with the world part, or one organization, as a
 *   state document (spec/mock-state.schema.json);
 * - `PUT /__mock/state`: imports one; with a world part it replaces the whole state, without one it puts
 *   its organizations in (replacing those with their ids). The document is validated and loaded into a
 *   new world before anything changes: a bad one changes nothing and gets 400 problem details naming the
 *   field;
 * - `POST /__mock/organizations`: a sandbox organization (modules, settings, currency, empty or with
 *   generated sample data) with keys of the roles asked for; the secrets are answered once, only their
 *   hashes are kept. Tenant isolation keeps it apart from every other organization.
 * Each keeps to the process-wide budget (budget.ts): past it, 507 problem details and nothing changes.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { MODULES, loadScopes, type Module } from '../../contract/openapi.ts';
import { ProblemError, invalid } from '../http/problem.ts';
import { Random } from '../store/random.ts';
import { seedOrg } from '../seed/build.ts';
import { dropOrg, exportState, loadOrg, worldFromState, type StateDocument, type WorldDoc } from '../state/document.ts';
import { checkBudget, DEFAULT_BUDGET, type MockBudget } from './budget.ts';
import { checkStateDocument } from '../state/validate.ts';
import { StreamedJson, stateChunks } from '../state/export-stream.ts';
import { Org } from '../store/org.ts';
import type { OrgSettings } from '../store/types.ts';
import type { ServedApp } from './served.ts';
import { boundedString, isObject, onlyFields } from './input.ts';

/** The largest `PUT /__mock/state` body: 64 MiB. */
export const STATE_MAX_BODY_BYTES = 64 * 1024 * 1024;
/** The most keys one sandbox organization gets at creation. */
export const MAX_SANDBOX_KEYS = 20;

/** `GET /__mock/state`: the state document of every organization (with the world part) or of `org`, streamed. */
export function getState(app: ServedApp, query: URLSearchParams): { status: number; body: StreamedJson } {
  const orgId = query.get('org') ?? undefined;
  if (orgId !== undefined && !app.world.orgs.has(orgId)) throw new ProblemError(404, 'not_found', `No organization ${orgId}.`);
  const chunks = stateChunks(app.world, orgId); // the state as of now, whatever writes follow
  return { status: 200, body: new StreamedJson(() => chunks) };
}

/** `PUT /__mock/state`: validates `body`, builds the new world, then swaps it in (nothing changes on a 400). */
export function putState(app: ServedApp, body: unknown, budget: MockBudget = DEFAULT_BUDGET): { status: number; body: unknown } {
  const doc = structuredClone(checkStateDocument(body));
  let world;
  try {
    if (doc.world) world = worldFromState(doc as StateDocument & { world: WorldDoc }, randomInt(2 ** 31));
    else {
      world = worldFromState(JSON.parse(JSON.stringify(exportState(app.world))) as StateDocument & { world: WorldDoc }, randomInt(2 ** 31));
      doc.organizations.forEach((o, i) => loadOrg(world!, o, `/organizations/${i}`));
    }
  } catch (e) {
    const m = /^(\/\S*): (.*)$/.exec((e as Error).message);
    throw invalid('body', m ? m[1]! : '/organizations', m ? m[2]! : (e as Error).message);
  }
  checkBudget(world, budget);
  app.reset(world);
  return { status: 200, body: { organizations: [...world.orgs.keys()] } };
}

const SETTINGS_DEFAULTS: OrgSettings = { currency: 'USD', costTracking: true, staging: { kitted: true, staged: true }, unitCostOverrides: false };

/** Scopes of a key role: `full` every scope, `read` every `:read` scope, `write` every `:write` scope. */
function scopesOfRole(role: string, at: string): string[] {
  const all = loadScopes();
  if (role === 'full') return all;
  if (role === 'read' || role === 'write') return all.filter((s) => s.endsWith(`:${role}`));
  throw invalid('body', at, 'must be full, read or write');
}

/** `POST /__mock/organizations`: creates a sandbox organization and its keys; answers the secrets once. */
export function createOrganization(app: ServedApp, body: Record<string, unknown>, budget: MockBudget = DEFAULT_BUDGET): { status: number; body: unknown } {
  const world = app.world;
  checkBudget(world, budget, { organizations: 1 });
  const id = body.id === undefined ? `org_${randomBytes(8).toString('hex')}` : boundedString(body.id, '/id', 64, /^[A-Za-z0-9_-]{1,64}$/);
  if (world.orgs.has(id)) throw new ProblemError(409, 'conflict', `Organization ${id} exists already.`);
  const name = boundedString(body.name ?? 'Sandbox', '/name', 200);
  const modules = Object.fromEntries(MODULES.map((m) => [m, true])) as Record<Module, boolean>;
  if (body.modules !== undefined) {
    if (!isObject(body.modules)) throw invalid('body', '/modules', 'must be an object of module: boolean');
    for (const [m, on] of Object.entries(body.modules)) {
      if (!MODULES.includes(m as Module) || typeof on !== 'boolean') throw invalid('body', `/modules/${m}`, `must be one of ${MODULES.join(', ')} with a boolean`);
      modules[m as Module] = on;
    }
  }
  const settings = structuredClone(SETTINGS_DEFAULTS);
  if (body.settings !== undefined) {
    if (!isObject(body.settings)) throw invalid('body', '/settings', 'must be an object');
    onlyFields(body.settings, '/settings', ['currency', 'costTracking', 'unitCostOverrides', 'staging']);
    const s = body.settings;
    if (s.currency !== undefined) settings.currency = currency(s.currency, '/settings/currency');
    for (const flag of ['costTracking', 'unitCostOverrides'] as const) {
      if (s[flag] === undefined) continue;
      if (typeof s[flag] !== 'boolean') throw invalid('body', `/settings/${flag}`, 'must be a boolean');
      settings[flag] = s[flag] as boolean;
    }
    if (s.staging !== undefined) {
      if (!isObject(s.staging)) throw invalid('body', '/settings/staging', 'must be {kitted?, staged?}');
      onlyFields(s.staging, '/settings/staging', ['kitted', 'staged']);
      for (const st of ['kitted', 'staged'] as const) {
        if (s.staging[st] === undefined) continue;
        if (typeof s.staging[st] !== 'boolean') throw invalid('body', `/settings/staging/${st}`, 'must be a boolean');
        settings.staging[st] = s.staging[st] as boolean;
      }
    }
  }
  if (body.currency !== undefined) settings.currency = currency(body.currency, '/currency');
  const data = body.data ?? 'empty';
  if (data !== 'empty' && data !== 'sample') throw invalid('body', '/data', 'must be empty or sample');
  const asked = body.keys ?? [{ role: 'full' }];
  if (!Array.isArray(asked) || asked.length < 1 || asked.length > MAX_SANDBOX_KEYS) throw invalid('body', '/keys', `must be an array of 1 to ${MAX_SANDBOX_KEYS} keys`);
  const keys = asked.map((k, i) => {
    const at = `/keys/${i}`;
    if (!isObject(k)) throw invalid('body', at, 'must be {role?, scopes?, prefix?, label?}');
    onlyFields(k, at, ['role', 'scopes', 'prefix', 'label']);
    const all = loadScopes();
    const scopes = k.scopes !== undefined
      ? (Array.isArray(k.scopes) && k.scopes.every((s) => all.includes(s as string)) ? (k.scopes as string[]) : (() => { throw invalid('body', `${at}/scopes`, `must be an array of ${all.join(', ')}`); })())
      : scopesOfRole(String(k.role ?? 'full'), `${at}/role`);
    const prefix = k.prefix ?? 'live';
    if (prefix !== 'live' && prefix !== 'test') throw invalid('body', `${at}/prefix`, 'must be live or test');
    const label = k.label === undefined ? `${name} ${k.role ?? 'custom'}` : boundedString(k.label, `${at}/label`, 200);
    return { role: k.scopes !== undefined ? 'custom' : String(k.role ?? 'full'), scopes, prefix: prefix as 'live' | 'test', label };
  });
  // Everything is checked: now the organization is made.
  const org = new Org(id, name, modules, settings);
  world.addOrg(org);
  if (data === 'sample') {
    seedOrg(world, org, { random: new Random(randomInt(2 ** 31)), size: 'small', role: 'sandbox', fixture: () => undefined });
    try {
      checkBudget(world, budget);
    } catch (e) {
      dropOrg(world, id);
      throw e;
    }
  }
  const minted = keys.map((k) => {
    const secret = `sk_${k.prefix}_${randomBytes(24).toString('base64url').replace(/[^A-Za-z0-9]/g, '').padEnd(32, '0').slice(0, 32)}`;
    const key = world.addKey(secret, { orgId: id, label: k.label, scopes: new Set(k.scopes) });
    return { id: key.id, secret, role: k.role, prefix: k.prefix, scopes: k.scopes, label: k.label };
  });
  return { status: 201, body: { organization: { id, name, modules, settings }, keys: minted } };
}

function currency(value: unknown, at: string): string {
  if (typeof value !== 'string' || !/^[A-Z]{3}$/.test(value)) throw invalid('body', at, 'must be an ISO 4217 code');
  return value;
}
