/** Authentication (Authentication 1–5; Errors): each malformed header gets its documented 401 code. */
import { test, expect } from '@playwright/test';
import { authenticate } from '../pipeline/authenticate.ts';
import { ProblemError } from '../http/problem.ts';
import { World, hashKey } from '../store/world.ts';
import { Clock } from '../store/clock.ts';

const secret = 'sk_live_abcdefghijklmnopqrstuvwxyz012345';
function world() {
  const w = new World(1, new Clock(() => 1_000_000));
  w.addKey(secret, { orgId: 'o', label: 'k', scopes: new Set() });
  w.addKey('sk_test_revokedrevokedrevokedrevoked0', { orgId: 'o', label: 'r', scopes: new Set(), revokedAt: 1 });
  w.addKey('sk_test_expiredexpiredexpiredexpired0', { orgId: 'o', label: 'e', scopes: new Set(), expiresAt: 999_999 });
  return w;
}
const code = (header: string | undefined) => {
  try {
    authenticate(header, world(), 1_000_000);
    return 'ok';
  } catch (e) {
    expect((e as ProblemError).status).toBe(401);
    return (e as ProblemError).code;
  }
};

test('the four 401 codes', () => {
  expect(code(undefined)).toBe('missing_authorization');
  for (const h of ['', 'Basic x', `bearer ${secret}`, 'Bearer', 'Bearer ', `Bearer ${secret} x`, `Bearer  ${secret}`]) expect(code(h), h).toBe('invalid_authorization_format');
  for (const h of ['Bearer pk_live_abcdefghijklmnopqrstuvwxyz', 'Bearer sk_live_', 'Bearer sk_live_short', `Bearer sk_live_${'a'.repeat(65)}`, 'Bearer sk_live_abcdefghijklmnopqrstuvwx-z']) expect(code(h), h).toBe('invalid_api_key_format');
  for (const h of ['Bearer sk_live_abcdefghijklmnopqrstuvwxyz012346', 'Bearer sk_test_revokedrevokedrevokedrevoked0', 'Bearer sk_test_expiredexpiredexpiredexpired0']) expect(code(h), h).toBe('invalid_api_key');
  expect(code(`Bearer ${secret}`)).toBe('ok');
});

test('only the one-way hash of a key is kept', () => {
  const w = world();
  const json = JSON.stringify([...w.keysById.values()]);
  expect(json).not.toContain(secret);
  expect(json).toContain(hashKey(secret));
});

test('keys holding the same scopes share one set; other lists get their own; stored records too', () => {
  const w = new World(1, new Clock(() => 0));
  const a = w.addKey('sk_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', { orgId: 'o', label: 'a', scopes: new Set(['meters:read', 'assets:read']) });
  const b = w.addKey('sk_live_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', { orgId: 'o', label: 'b', scopes: new Set(['assets:read', 'meters:read']) });
  const c = w.addKey('sk_live_cccccccccccccccccccccccccccccccc', { orgId: 'o', label: 'c', scopes: new Set(['meters:read']) });
  const d = w.addKeyRecord({ id: 'key_d', orgId: 'o', prefix: 'live', hash: hashKey('sk_live_dddddddddddddddddddddddddddddddd'), label: 'd', scopes: new Set(['meters:read', 'assets:read']) });
  expect(b.scopes).toBe(a.scopes);
  expect(d.scopes).toBe(a.scopes);
  expect(c.scopes).not.toBe(a.scopes);
  expect([...a.scopes].sort()).toEqual(['assets:read', 'meters:read']);
  expect([...c.scopes]).toEqual(['meters:read']);
  expect(w.keyOfSecret('sk_live_dddddddddddddddddddddddddddddddd')).toBe(d);
});
