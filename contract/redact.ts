/**
 * Redaction of secrets in everything the suite records or prints (docs/vendors.md, "Reading a report": no secret in any output): every key of the profile
 * becomes `sk_live_****abcd` (prefix and last four characters kept).
 */
import type { TargetProfile } from './profile.ts';

/** The redacted form of one secret. */
export function maskSecret(secret: string): string {
  const prefix = /^sk_(live|test)_/.exec(secret)?.[0] ?? '';
  return `${prefix}****${secret.slice(-4)}`;
}

/** What of a profile may hold secrets: its keys, control token and headers. */
export type SecretSources = Pick<TargetProfile, 'keys'> & Partial<Pick<TargetProfile, 'control' | 'headers'>>;

/**
 * Every secret string of a profile (docs/vendors.md, "Reading a report"), as the profile's schema marks
 * them: its keys at any depth, the control token, and every `headers` value (a header value may be
 * `env:VARNAME`, and a gateway's key or tenant token is sent there; once resolved a value no longer says
 * where it came from, so all are secrets). Strings under 8 characters are left out: masking them
 * everywhere would mangle ordinary text.
 */
export function profileSecrets(profile: SecretSources): string[] {
  const out = new Set<string>();
  const visit = (node: unknown) => {
    if (typeof node === 'string') out.add(node);
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(profile.keys);
  if (profile.control?.token) out.add(profile.control.token);
  for (const value of Object.values(profile.headers ?? {})) out.add(value);
  return [...out].filter((s) => s.length >= 8);
}

/**
 * The environment variable a reproduction names for each secret of a profile: `MMS_KEY_` and the key's
 * path under `keys` in upper snake case, `scopes` singular (`keys.otherOrg` → `MMS_KEY_OTHER_ORG`,
 * `keys.scopes["meters:read"]` → `MMS_KEY_SCOPE_METERS_READ`). The live pool's keys are interchangeable
 * (full-scope keys of the main organization): all are `MMS_KEY_LIVE`. The first path of a secret wins.
 */
export function secretEnvNames(profile: Pick<TargetProfile, 'keys'>): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (node: unknown, path: string[]) => {
    if (typeof node === 'string') {
      const name = ['MMS_KEY', ...path].map((p) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2')).join('_').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase();
      if (node.length >= 8 && !out.has(node)) out.set(node, name);
    } else if (Array.isArray(node)) node.forEach((item) => visit(item, path));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) visit(v, [...path, k === 'scopes' ? 'scope' : k]);
  };
  visit(profile.keys, []);
  return out;
}

/** Replaces every occurrence of the given secrets, and anything shaped like an API key, in text. */
export class Redactor {
  private readonly pattern: RegExp | undefined;

  /** `names`: the reproduction's variable of each secret (secretEnvNames), for `envRefs`. */
  constructor(secrets: string[], readonly names: ReadonlyMap<string, string> = new Map()) {
    const escaped = [...secrets].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    escaped.push('sk_(?:live|test)_[A-Za-z0-9]{8,}');
    this.pattern = new RegExp(escaped.join('|'), 'g');
  }

  /** The redactor of a profile: its secrets, with their variables for reproductions. */
  static forProfile(profile: SecretSources): Redactor {
    return new Redactor(profileSecrets(profile), secretEnvNames(profile));
  }

  /** `text` with every secret masked. */
  text(text: string): string {
    return this.pattern ? text.replace(this.pattern, (m) => maskSecret(m)) : text;
  }

  /** The variable a reproduction names for the first secret of the profile in `text` (a header), if any. */
  envName(text: string): string | undefined {
    let found: { at: number; name: string } | undefined;
    for (const [secret, name] of this.names) {
      const at = text.indexOf(secret);
      if (at >= 0 && (!found || at < found.at)) found = { at, name };
    }
    return found?.name;
  }

  /** A deep copy of a JSON value with every string redacted. */
  value<T>(value: T): T {
    return JSON.parse(this.text(JSON.stringify(value))) as T;
  }
}
