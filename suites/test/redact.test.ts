/** Redaction (docs/vendors.md, "Reading a report": no secret in any output): secrets never leave the suite unmasked. */
import { test, expect } from '@playwright/test';
import { Redactor, maskSecret, profileSecrets } from '../lib/redact.ts';

test('keys are masked to their prefix and last four characters', () => {
  expect(maskSecret('sk_live_abcdefghijklmnop1234')).toBe('sk_live_****1234');
  const r = new Redactor(profileSecrets({ keys: { live: ['sk_live_abcdefghijklmnop1234'], scopes: { 'a:read': 'sk_test_zyxwvutsrqponmlk9876' } } as never }));
  const text = 'Authorization: Bearer sk_live_abcdefghijklmnop1234 and sk_test_zyxwvutsrqponmlk9876 and sk_live_UnknownKeyShape0000000000';
  expect(r.text(text)).toBe('Authorization: Bearer sk_live_****1234 and sk_test_****9876 and sk_live_****0000');
  expect(r.value({ h: { authorization: 'Bearer sk_live_abcdefghijklmnop1234' } })).toEqual({ h: { authorization: 'Bearer sk_live_****1234' } });
});
