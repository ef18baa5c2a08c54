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
