/**
 * Target profiles (docs/design.md §3): loading, validation against spec/target-profile.schema.json,
 * resolution of `env:VARNAME` secrets (keys and header values), and the request options (headers, TLS,
 * proxy) a profile asks for.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { PROFILE_SCHEMA_FILE } from './paths.ts';
import { cachedSchemaFileValidator } from './ajv-cache.ts';
import type { Module } from './openapi.ts';

export interface StockFixture { partId: string; locationId: string }

/** A target profile with every secret resolved to its value. */
export interface TargetProfile {
  name?: string;
  baseUrl: string;
  /** Tests run at once against the target (contract/concurrency.ts); absent: from the live keys' rate budget. */
  concurrency?: number;
  keys: {
    live: string[];
    test?: string;
    otherOrg?: string;
    revoked?: string;
    expired?: string;
    noScopes?: string;
    scopes?: Record<string, string>;
    /** Per scope, a key holding every scope but that one (Authentication 7: the all-but-one scope check). */
    allScopesExcept?: Record<string, string>;
    moduleDisabled?: Partial<Record<Module, string>>;
    costTrackingDisabled?: string;
    restrictedSettings?: string;
    rateLimit?: { live?: string; test?: string };
  };
  fixtures: {
    activeUserId?: string;
    inactiveUserId?: string;
    otherOrgUserId?: string;
    teamId?: string;
    assetId?: string;
    locationId?: string;
    rejectedWorkRequestId?: string;
    pendingWorkRequestIds?: string[];
    meterUsedByAutomation?: string;
    meterInMetersDisabledOrg?: string;
    workOrderWithUnavailableLink?: string;
    expenseInCostTrackingDisabledOrg?: { workOrderId: string; costId: string; userId?: string };
    expenseUnderPreviousCurrency?: { workOrderId: string; costId: string; currency: string };
    stockedParts?: StockFixture[];
    partsModuleDisabledStock?: StockFixture;
    restrictedSettingsStock?: StockFixture;
  };
  bodies: Partial<Record<'createMeter' | 'createMeterReading' | 'createWorkOrder' | 'createCompatWorkOrder', Record<string, unknown>>>;
  /** The mock's control API: its base and the token sent in `X-Mock-Control-Token`. */
  control?: { baseUrl: string; token: string };
  /** Extra headers of every request (never Authorization), secrets resolved. */
  headers?: Record<string, string>;
  /** `ca`: an absolute path once loaded by loadProfile. */
  tls?: { ca?: string; insecure?: boolean };
  proxy?: { server: string; bypass?: string };
}

/** The request options of Playwright's `use` that a profile sets (extraHTTPHeaders, ignoreHTTPSErrors, proxy). */
export interface RequestUse {
  extraHTTPHeaders?: Record<string, string>;
  ignoreHTTPSErrors?: boolean;
  proxy?: { server: string; bypass?: string };
}

/**
 * What `profile` asks of every request, as Playwright `use` options (docs/vendors.md, "Certifying your
 * implementation"). An Authorization header is dropped: the suite's clients set it per role. The CA
 * bundle is not among them: the runner gets it as NODE_EXTRA_CA_CERTS (see cli/run.ts).
 */
export function requestUse(profile: Pick<TargetProfile, 'headers' | 'tls' | 'proxy'>): RequestUse {
  const headers = Object.entries(profile.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization');
  return {
    ...(headers.length > 0 && { extraHTTPHeaders: Object.fromEntries(headers) }),
    ...(profile.tls?.insecure && { ignoreHTTPSErrors: true }),
    ...(profile.proxy && { proxy: { server: profile.proxy.server, ...(profile.proxy.bypass && { bypass: profile.proxy.bypass }) } }),
  };
}

/** A profile file that cannot be used; `message` is one line naming the problem. */
export class ProfileError extends Error {}

let validateProfile: ValidateFunction | undefined;

/** Validates a parsed profile against the schema; returns one message per problem (empty when valid). */
export function profileProblems(raw: unknown): string[] {
  validateProfile ??= cachedSchemaFileValidator('profile', PROFILE_SCHEMA_FILE);
  return validateProfile(raw) ? [] : validateProfile.errors!.filter((e) => e.keyword !== 'propertyNames').map(problemLine);
}

/**
 * One schema error as a line naming the member at fault: an unknown member (`additionalProperties`)
 * and a member name the schema refuses (`propertyNames`, reported once) are named, not just counted.
 */
function problemLine(e: ErrorObject): string {
  const at = e.instancePath || '(root)';
  if (e.keyword === 'additionalProperties') return `${at} must NOT have additional property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.propertyName !== undefined) return `${at} property name "${e.propertyName}" ${e.message}`;
  return `${at} ${e.message}`;
}

function resolveSecret(value: string, env: NodeJS.ProcessEnv): string {
  if (!value.startsWith('env:')) return value;
  const name = value.slice(4);
  const secret = env[name];
  if (!secret) throw new ProfileError(`the profile names env:${name}, but ${name} is not set`);
  return secret;
}

/** Every `env:` variable named under `node` that `env` does not set, in order, once each. */
export function unsetVariables(node: unknown, env: NodeJS.ProcessEnv): string[] {
  if (typeof node === 'string') return node.startsWith('env:') && !env[node.slice(4)] ? [node.slice(4)] : [];
  if (Array.isArray(node)) return [...new Set(node.flatMap((n) => unsetVariables(n, env)))];
  if (node && typeof node === 'object') return [...new Set(Object.values(node).flatMap((n) => unsetVariables(n, env)))];
  return [];
}

function resolveSecrets(node: unknown, env: NodeJS.ProcessEnv): unknown {
  if (typeof node === 'string') return resolveSecret(node, env);
  if (Array.isArray(node)) return node.map((n) => resolveSecrets(n, env));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolveSecrets(v, env)]));
  return node;
}

/** `node` without its `$comment` and `$comment:<member>` members, at every depth. */
export function withoutComments(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutComments);
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).filter(([k]) => !/^\$comment(:|$)/.test(k)).map(([k, v]) => [k, withoutComments(v)]));
  }
  return node;
}

/**
 * The control API of a profile with its token resolved; an `env:` token whose variable is unset drops
 * the control API (the tests that need it are then not assessed) instead of failing the profile.
 */
function controlOf(control: { baseUrl: string; token: string } | undefined, env: NodeJS.ProcessEnv): TargetProfile['control'] {
  if (!control) return undefined;
  if (control.token.startsWith('env:') && !env[control.token.slice(4)]) return undefined;
  return { baseUrl: control.baseUrl, token: resolveSecret(control.token, env) };
}

/**
 * Parses, validates and resolves a profile (its `$comment` members dropped). Throws ProfileError with one clear line when the JSON is
 * malformed, the profile breaks the schema, or an `env:` secret is unset.
 */
export function parseProfile(text: string, source: string, env: NodeJS.ProcessEnv = process.env): TargetProfile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ProfileError(`${source} is not valid JSON: ${(e as Error).message}`);
  }
  const problems = profileProblems(raw);
  if (problems.length) throw new ProfileError(`${source} is not a valid target profile: ${problems.slice(0, 3).join('; ')}`);
  const r = withoutComments(raw) as Record<string, unknown> & { keys: Record<string, unknown> };
  // Every unset variable at once: one line naming them all, not one per attempt.
  const unset = unsetVariables([r.keys, r.headers], env);
  if (unset.length) throw new ProfileError(`the profile names ${unset.length === 1 ? 'a variable that is' : `${unset.length} variables that are`} not set: ${unset.join(' ')}`);
  const keys = resolveSecrets(r.keys, env) as Record<string, unknown>;
  const control = controlOf(r.control as { baseUrl: string; token: string } | undefined, env);
  const headers = r.headers === undefined ? undefined : checkedHeaders(resolveSecrets(r.headers, env) as Record<string, string>, source);
  return {
    name: r.name as string | undefined,
    baseUrl: (r.baseUrl as string).replace(/\/$/, ''),
    ...(r.concurrency !== undefined && { concurrency: r.concurrency as number }),
    keys: { ...keys, live: ([] as string[]).concat(keys.live as string | string[]) } as TargetProfile['keys'],
    fixtures: (r.fixtures ?? {}) as TargetProfile['fixtures'],
    bodies: (r.bodies ?? {}) as TargetProfile['bodies'],
    control,
    ...(headers !== undefined && { headers }),
    ...(r.tls !== undefined && { tls: r.tls as TargetProfile['tls'] }),
    ...(r.proxy !== undefined && { proxy: r.proxy as TargetProfile['proxy'] }),
  };
}

/**
 * `headers` unchanged when every value can be sent (RFC 9110 §5.5: no CR, LF, NUL or other control
 * character but HTAB); throws ProfileError naming the header, never its value (it may be a secret).
 */
function checkedHeaders(headers: Record<string, string>, source: string): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) {
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) throw new ProfileError(`${source}: /headers/${name} holds a CR, LF or other control character, which no HTTP header value may hold`);
  }
  return headers;
}

/** Reads a profile file; see parseProfile. */
export function loadProfile(file: string, env: NodeJS.ProcessEnv = process.env): TargetProfile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ProfileError(`cannot read target profile ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const profile = parseProfile(text, file, env);
  if (profile.tls?.ca) {
    const ca = resolve(dirname(resolve(file)), profile.tls.ca);
    if (!existsSync(ca)) throw new ProfileError(`${file}: tls.ca ${profile.tls.ca} does not exist (${ca})`);
    profile.tls = { ...profile.tls, ca };
  }
  return profile;
}
