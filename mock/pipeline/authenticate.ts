/**
 * Stage authenticate (docs/design.md §4, layer 2): authentication (Authentication 1–5; Errors, the four 401 codes).
 *
 * `Authorization: Bearer <key>`; the scheme is matched exactly. The key is `sk_live_` or `sk_test_` and
 * 24–64 letters and digits (the shape is inferred). Known keys are looked up by the SHA-256 of the
 * secret (the store keeps one-way hashes only, Authentication 4): the presented secret is hashed at once
 * and never kept, not even in a cache; revoked and expired keys are refused like unknown ones.
 */
import { ProblemError } from '../http/problem.ts';
import type { World } from '../store/world.ts';
import type { ApiKey } from '../store/types.ts';
import type { Exchange } from './exchange.ts';
import type { Step } from './stages.ts';

/** `Bearer`, one space and a well-formed key: tested on the header as it came (no slices first). */
const BEARER_KEY = /^Bearer sk_(?:live|test)_[A-Za-z0-9]{24,64}$/;
const BEARER_PREFIX = 'Bearer '.length;

/** Returns the request's key, or throws 401 problem details with the documented code. */
export function authenticate(header: string | undefined, world: World, now: number): ApiKey {
  // A well-formed key (the common case) passes every format check below at once; only the rest need them.
  if (header !== undefined && BEARER_KEY.test(header)) return knownKey(header.slice(BEARER_PREFIX), world, now);
  if (header === undefined) {
    throw new ProblemError(401, 'missing_authorization', 'The Authorization header is absent; send Authorization: Bearer <API_KEY>.');
  }
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  if (scheme !== 'Bearer') {
    throw new ProblemError(401, 'invalid_authorization_format', 'Only the Bearer scheme is supported: Authorization: Bearer <API_KEY>.');
  }
  const token = header.slice(space + 1);
  if (space === -1 || token === '' || /\s/.test(token)) {
    throw new ProblemError(401, 'invalid_authorization_format', 'The Authorization header must be "Bearer" followed by one API key.');
  }
  if (!token.startsWith('sk_live_') && !token.startsWith('sk_test_')) {
    throw new ProblemError(401, 'invalid_api_key_format', 'API keys start with sk_live_ or sk_test_.');
  }
  throw new ProblemError(401, 'invalid_api_key_format', 'The API key does not have the shape of an API key.');
}

/** The live key record of a well-formed `token`, by its hash; throws 401 `invalid_api_key` otherwise. */
function knownKey(token: string, world: World, now: number): ApiKey {
  const key = world.keyOfSecret(token);
  if (!key || key.revokedAt !== undefined || (key.expiresAt !== undefined && key.expiresAt <= now)) {
    throw new ProblemError(401, 'invalid_api_key', 'The API key is unknown, expired or revoked.');
  }
  return key;
}

/** The authenticate step against the current world (`world()`: it changes on reset); sets world, now, key, org. */
export function authenticateStep(world: () => World): Step {
  return (ex: Exchange) => {
    const w = (ex.world = world());
    const now = (ex.now = w.clock.now());
    const key = (ex.key = authenticate(ex.req.headers.authorization, w, now));
    ex.org = w.orgs.get(key.orgId)!;
  };
}
