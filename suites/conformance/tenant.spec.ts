/**
 * Tenant isolation (What the service does; Authentication): lists never show another organization's
 * records; naming an organization in the request does not switch the key's tenant. That another
 * organization's ids are 404, never 403, on every operation whose path names a record is checked per
 * operation beside its scope refusals (scopes.spec.ts, TENANT-001/TENANT-005), where it shares their
 * prepared request.
 */
import { test, expect } from '../kits/meters.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkPages } from '../lib/walk-pages.ts';
import type { AssetList, Meter, MeterEnvelope } from '../lib/api-types.ts';

test.describe('tenant isolation', () => {
  test("lists never include another organization's records", { tag: ['@TENANT-002'] }, async ({ api, as, meters, profile }) => {
    const mine = await meters.create();
    const foreign = as.otherOrg();
    const asset = (await foreign.get<AssetList>('/assets', { query: { limit: 1 } })).body.data[0]!;
    const theirs = (await foreign.post<MeterEnvelope>('/meters', { json: { name: 'foreign meter', ...profile.bodies.createMeter, asset_id: asset.id } })).body.data;
    const ours = (await walkPages<Meter>(api, '/meters', { limit: 100 })).items.map((m) => m.id);
    expect(ours).toContain(mine.id);
    expect(ours).not.toContain(theirs.id);
    const their = (await walkPages<Meter>(foreign, '/meters', { limit: 100 })).items.map((m) => m.id);
    expect(their).toContain(theirs.id);
    expect(their).not.toContain(mine.id);
    const shared = ours.filter((id) => their.includes(id));
    expect(shared, "no meter is in both organizations' lists").toEqual([]);
  });

  test("naming an organization in the request does not switch the key's tenant", { tag: ['@TENANT-003'] }, async ({ api, as, meters }) => {
    const mine = await meters.create();
    const foreign = as.otherOrg();
    const theirs = (await walkPages<Meter>(foreign, '/meters', { limit: 100 })).items[0]!;
    expect(theirs, 'the second organization has a meter').toBeTruthy();
    for (const attempt of [
      { query: { organization_id: 'org_globex', org: 'org_globex', organization: 'org_globex' } },
      { headers: { 'X-Organization-ID': 'org_globex', 'X-Org-ID': 'org_globex', 'X-Tenant-ID': 'org_globex' } },
    ]) {
      expectProblem(await api.get(`/meters/${theirs.id}`, attempt), 404);
      const own = await api.get(`/meters/${mine.id}`, attempt);
      expect(own.status).toBe(200);
    }
  });
});
