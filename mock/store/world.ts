/**
 * Everything the mock knows: organizations, API keys (by one-way hash), the clock and the id factory.
 * Built from fixtures by seed/build.ts; reset by the control API.
 */
import * as crypto from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';
import { Clock } from './clock.ts';
import { IdFactory } from './ids.ts';
import type { Org } from './org.ts';
import type { ApiKey } from './types.ts';

/** Node's one-shot digest (Node ≥ 20.12): no Hash object per request. */
const oneShotHash = (crypto as { hash?: typeof crypto.hash }).hash;

/** SHA-256 of a secret in `encoding`, one-shot where Node has it (no Hash object per call). */
const sha256 = (encoding: 'hex' | 'binary'): ((secret: string) => string) =>
  oneShotHash ? (secret) => oneShotHash('sha256', secret, encoding) : (secret) => createHash('sha256').update(secret).digest(encoding);

/** SHA-256 of an API key secret, hex — the only form in which the mock keeps keys. */
export const hashKey = sha256('hex');

/**
 * The same SHA-256 as 32 latin1 characters: the key of the lookup map. A fresh 64-character hex string
 * costs a Map lookup about twice what these 32 characters do, and authentication hashes every request.
 */
const digestOf = sha256('binary');

/** A hex hash (`hashKey`) as its lookup digest. */
const digestOfHash = (hash: string): string => Buffer.from(hash, 'hex').toString('latin1');

export class World {
  readonly orgs = new Map<string, Org>();
  /** Keys by the SHA-256 of their secret as latin1 characters (`digestOf`). */
  private readonly keysByDigest = new Map<string, ApiKey>();
  /** One read-only set per distinct scope list, shared by every key holding that list (`sharedScopes`). */
  private readonly scopeSets = new Map<string, ReadonlySet<string>>();
  readonly keysById = new Map<string, ApiKey>();
  /** Fixture ids recorded by the seeders, for the target profile (mock/profile.ts). */
  readonly fixtures: Record<string, unknown> = {};
  readonly ids: IdFactory;
  /** Secret of cursor signatures; new for every world, so cursors never outlive a reset. */
  cursorSecret: Buffer = randomBytes(32);
  private customFieldCounter: number;

  constructor(readonly seed: number, readonly clock: Clock) {
    this.ids = new IdFactory(seed);
    this.customFieldCounter = 1000 + (seed % 997) * 10;
  }

  addOrg(org: Org): Org {
    this.orgs.set(org.id, org);
    return org;
  }

  /** Registers a key by the hash of its secret; the secret itself is not kept. */
  addKey(secret: string, key: Omit<ApiKey, 'hash' | 'id' | 'prefix'> & { id?: string }): ApiKey {
    const prefix = secret.startsWith('sk_test_') ? 'test' : 'live';
    return this.addKeyRecord({ ...key, id: key.id ?? this.ids.next('key'), prefix, hash: hashKey(secret) });
  }

  /** Registers a key record as stored (hash and id given; mock/state/document.ts); its scopes become the shared set. */
  addKeyRecord(stored: ApiKey): ApiKey {
    const record: ApiKey = { ...stored, scopes: this.sharedScopes(stored.scopes) };
    this.keysByDigest.set(digestOfHash(record.hash), record);
    this.keysById.set(record.id, record);
    return record;
  }

  /**
   * The one set of these scopes that keys share. Scope sets are never changed (ApiKey.scopes is
   * read-only), and most keys hold one of a few lists: sharing keeps the set the scope check reads
   * (pipeline/authorize.ts) in the processor's cache instead of one set per key among thousands.
   */
  private sharedScopes(scopes: ReadonlySet<string>): ReadonlySet<string> {
    const name = [...scopes].sort().join(' ');
    let shared = this.scopeSets.get(name);
    if (shared === undefined) this.scopeSets.set(name, (shared = new Set(scopes)));
    return shared;
  }

  /** Forgets every key of organization `orgId` (before its stored state is loaded again). */
  dropKeysOf(orgId: string): void {
    for (const key of this.keysById.values()) {
      if (key.orgId !== orgId) continue;
      this.keysById.delete(key.id);
      this.keysByDigest.delete(digestOfHash(key.hash));
    }
  }

  /** The last custom-field definition id issued. */
  get lastCustomFieldId(): number {
    return this.customFieldCounter;
  }

  /** Continues custom-field ids after `id` when it is ahead (never moves back). */
  continueCustomFieldsAfter(id: number): void {
    if (id > this.customFieldCounter) this.customFieldCounter = id;
  }

  /** The key whose secret hashes to `hash`, if any (revoked and expired keys included). */
  keyByHash(hash: string): ApiKey | undefined {
    return this.keysByDigest.get(digestOfHash(hash));
  }

  /**
   * The key of a presented secret, if any (revoked and expired keys included): the secret is hashed
   * here and looked up by its digest, never kept (Authentication 4).
   */
  keyOfSecret(secret: string): ApiKey | undefined {
    return this.keysByDigest.get(digestOf(secret));
  }

  /** The next custom-field definition id (integers, 1..2147483647). */
  nextCustomFieldId(): number {
    return ++this.customFieldCounter;
  }
}
