/**
 * Redaction of secrets in everything the suite records or prints (README "Reports": no secret in any output): every key of the profile
 * becomes `sk_live_****abcd` (prefix and last four characters kept).
 */
import type { TargetProfile } from '../../contract/profile.ts';

/** The redacted form of one secret. */
export function maskSecret(secret: string): string {
  const prefix = /^sk_(live|test)_/.exec(secret)?.[0] ?? '';
  return `${prefix}****${secret.slice(-4)}`;
}

/** Every secret string of a profile (its keys, at any depth). */
export function profileSecrets(profile: Pick<TargetProfile, 'keys'>): string[] {
  const out = new Set<string>();
  const visit = (node: unknown) => {
    if (typeof node === 'string') out.add(node);
    else if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') Object.values(node).forEach(visit);
  };
  visit(profile.keys);
  return [...out].filter((s) => s.length >= 8);
}

/** Replaces every occurrence of the given secrets, and anything shaped like an API key, in text. */
export class Redactor {
  private readonly pattern: RegExp | undefined;

  constructor(secrets: string[]) {
    const escaped = [...secrets].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    escaped.push('sk_(?:live|test)_[A-Za-z0-9]{8,}');
    this.pattern = new RegExp(escaped.join('|'), 'g');
  }

  /** `text` with every secret masked. */
  text(text: string): string {
    return this.pattern ? text.replace(this.pattern, (m) => maskSecret(m)) : text;
  }

  /** A deep copy of a JSON value with every string redacted. */
  value<T>(value: T): T {
    return JSON.parse(this.text(JSON.stringify(value))) as T;
  }
}
