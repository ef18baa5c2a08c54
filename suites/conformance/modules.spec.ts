/**
 * Feature modules (Authentication 8; module requirements): a disabled module answers 403
 * `module_disabled` even when the key holds the scope, except the documented exceptions.
 */
import { test, expect } from '../fixtures.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { need } from '../lib/needs.ts';

test.describe('Meters module disabled', () => {
  test('every meter and reading operation but archive answers 403 module_disabled', { tag: ['@MODULE-001'] }, async ({ as, profile }) => {
    const client = as.moduleDisabled('meters');
    const meterId = need(profile, 'fixtures.meterInMetersDisabledOrg');
    const asset = (await client.get('/assets', { query: { limit: 1 } })).body.data[0];
    const attempts: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', '/meters'],
      ['POST', '/meters', { name: 'not allowed', ...profile.bodies.createMeter, asset_id: asset?.id ?? 'ast_none' }],
      ['GET', `/meters/${meterId}`],
      ['PATCH', `/meters/${meterId}`, { name: 'not allowed' }],
      ['GET', `/meters/${meterId}/readings`],
      ['POST', `/meters/${meterId}/readings`, { value: 1 }],
    ];
    for (const [method, path, json] of attempts) {
      expectProblem(await client.send(method, path, json ? { json } : {}), 403, 'module_disabled');
    }
  });

  test('archiving a meter stays available', { tag: ['@MODULE-005'] }, async ({ as, profile }) => {
    const client = as.moduleDisabled('meters');
    const meterId = need(profile, 'fixtures.meterInMetersDisabledOrg');
    const archived = await client.delete(`/meters/${meterId}`);
    expect(archived.status, archived.text).toBe(204);
  });
});
