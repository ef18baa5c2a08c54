/**
 * Validation of control-API input (docs/integrators.md, "The control API"): every field is checked — known
 * names only (an unknown one is a 400 naming it), finite and bounded numbers, capped sizes — so no
 * control request can answer 5xx or break the mock. Errors are 400 `validation_error` problem details.
 */
import { loadScopes, MODULES } from '../../contract/openapi.ts';
import { invalid } from '../http/problem.ts';
import type { OrgFixture } from '../seed/fixtures-file.ts';

/** The most organizations `POST /__mock/reset` may load, and keys per organization. */
export const MAX_RESET_ORGS = 50;
export const MAX_ORG_KEYS = 200;

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Throws 400 naming the first member of `obj` (at JSON pointer `at`) that is not in `allowed`. */
export function onlyFields(obj: Record<string, unknown>, at: string, allowed: readonly string[]): void {
  for (const name of Object.keys(obj)) {
    if (!allowed.includes(name)) throw invalid('body', `${at}/${name}`, `is not a field of this control request (known: ${allowed.join(', ') || 'none'})`);
  }
}

/** A finite number in [min, max], or 400 at `at`. */
export function boundedNumber(value: unknown, at: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw invalid('body', at, `must be a number from ${min} to ${max}`);
  return value;
}

/** A string of 1..max characters matching `shape` (when given), or 400 at `at`. */
export function boundedString(value: unknown, at: string, max: number, shape?: RegExp): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max || (shape && !shape.test(value))) {
    throw invalid('body', at, `must be a string of 1 to ${max} characters${shape ? ` matching ${shape.source}` : ''}`);
  }
  return value;
}

function bool(value: unknown, at: string): boolean {
  if (typeof value !== 'boolean') throw invalid('body', at, 'must be a boolean');
  return value;
}

const KEY_SECRET = /^sk_(live|test)_[A-Za-z0-9]{24,64}$/;

/** `organizations` of `POST /__mock/reset`: the shape of fixtures/seed/organizations.yaml, checked field by field. */
export function organizationsInput(value: unknown): OrgFixture[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_RESET_ORGS) throw invalid('body', '/organizations', `must be an array of 1 to ${MAX_RESET_ORGS} organizations`);
  const scopes = loadScopes();
  const ids = new Set<string>();
  const secrets = new Set<string>();
  return value.map((org, i) => {
    const at = `/organizations/${i}`;
    if (!isObject(org)) throw invalid('body', at, 'must be an organization object');
    onlyFields(org, at, ['id', 'name', 'role', 'data', 'modules', 'settings', 'keys']);
    const id = boundedString(org.id, `${at}/id`, 64, /^[A-Za-z0-9_-]+$/);
    if (ids.has(id)) throw invalid('body', `${at}/id`, 'must be unique');
    ids.add(id);
    if (!['full', 'small', 'fixtures'].includes(org.data as string)) throw invalid('body', `${at}/data`, 'must be full, small or fixtures');
    if (!isObject(org.modules)) throw invalid('body', `${at}/modules`, `must be an object of ${MODULES.join(', ')}: boolean`);
    onlyFields(org.modules, `${at}/modules`, MODULES);
    for (const m of MODULES) bool(org.modules[m], `${at}/modules/${m}`);
    const s = org.settings;
    if (!isObject(s)) throw invalid('body', `${at}/settings`, 'must be {currency, costTracking, staging, unitCostOverrides}');
    onlyFields(s, `${at}/settings`, ['currency', 'costTracking', 'staging', 'unitCostOverrides']);
    boundedString(s.currency, `${at}/settings/currency`, 3, /^[A-Z]{3}$/);
    bool(s.costTracking, `${at}/settings/costTracking`);
    bool(s.unitCostOverrides, `${at}/settings/unitCostOverrides`);
    if (!isObject(s.staging)) throw invalid('body', `${at}/settings/staging`, 'must be {kitted, staged}');
    onlyFields(s.staging, `${at}/settings/staging`, ['kitted', 'staged']);
    bool(s.staging.kitted, `${at}/settings/staging/kitted`);
    bool(s.staging.staged, `${at}/settings/staging/staged`);
    if (!Array.isArray(org.keys) || org.keys.length > MAX_ORG_KEYS) throw invalid('body', `${at}/keys`, `must be an array of at most ${MAX_ORG_KEYS} keys`);
    org.keys.forEach((key: unknown, k: number) => {
      const kat = `${at}/keys/${k}`;
      if (!isObject(key)) throw invalid('body', kat, 'must be a key object');
      onlyFields(key, kat, ['role', 'label', 'secret', 'scopes', 'revoked', 'expired']);
      boundedString(key.role, `${kat}/role`, 100, /^[A-Za-z_]+(\.[A-Za-z_:]+)?$/);
      boundedString(key.label, `${kat}/label`, 200);
      const secret = boundedString(key.secret, `${kat}/secret`, 72, KEY_SECRET);
      if (secrets.has(secret)) throw invalid('body', `${kat}/secret`, 'must be unique');
      secrets.add(secret);
      if (key.scopes !== 'all' && !(Array.isArray(key.scopes) && key.scopes.every((x) => scopes.includes(x as string)))) {
        throw invalid('body', `${kat}/scopes`, `must be "all" or an array of ${scopes.join(', ')}`);
      }
      for (const flag of ['revoked', 'expired'] as const) if (key[flag] !== undefined) bool(key[flag], `${kat}/${flag}`);
    });
    boundedString(org.role, `${at}/role`, 100);
    boundedString(org.name, `${at}/name`, 200);
    return org as unknown as OrgFixture;
  });
}
