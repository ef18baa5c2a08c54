/**
 * Scannable identifiers (Resources › Identifier; Authentication, module rules: "identifier writes and
 * target-specific lists: the module of the target entity", "Identifier resolution filters out
 * unavailable targets", "Retiring an identifier ... stay[s] available after a module is disabled").
 * Every identifier route and body is inferred, so every requirement here is `inferred`.
 */
import { test, expect, attachIdentifier, freshValue, partIdentifierWhilePartsDisabled, type Target } from '../kits/identifiers.ts';
import { foreignRecord } from '../lib/foreign.ts';
import type { ApiClient } from '../lib/client.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkPages } from '../lib/walk-pages.ts';
import type { AssetList, Identifier, IdentifierBatch } from '../lib/api-types.ts';

const UNKNOWN = 'doesnotexist0000';

/** Ids of every identifier a list shows (walked to its end). */
async function listedIds(client: ApiClient, query: Record<string, string> = {}): Promise<string[]> {
  return (await walkPages<Identifier>(client, '/identifiers', { limit: 100, ...query })).items.map((i) => i.id);
}

test.describe('identifiers', () => {
  test('an attached payload resolves to exactly its target; attaching it again answers 409', { tag: ['@IDENT-001'] }, async ({ api, identifiers }) => {
    const asset = await identifiers.asset();
    const location = await identifiers.location();
    for (const target of [asset, location]) {
      const identifier = await identifiers.attach(target);
      if (identifier.kind !== undefined) expect(identifier.kind).toBe('customer');
      await identifiers.expectResolves(identifier.value, target, identifier.id);
      expectProblem(await api.post('/identifiers', { json: { value: identifier.value, ...target } }), 409);
      const elsewhere: Target = target === asset ? location : asset;
      expectProblem(await api.post('/identifiers', { json: { value: identifier.value, ...elsewhere } }), 409);
      await identifiers.expectResolves(identifier.value, target, identifier.id);
    }
  });

  test('a payload attached to a part resolves to that part', { tag: ['@IDENT-001'] }, async ({ identifiers }) => {
    const { target, identifier } = await identifiers.onAPart();
    await identifiers.expectResolves(identifier.value, target, identifier.id);
  });

  test('generated and customer-owned payloads resolve through the one resolver', { tag: ['@IDENT-002'] }, async ({ identifiers }) => {
    const asset = await identifiers.asset();
    const first = await identifiers.generate(asset);
    const second = await identifiers.generate(asset);
    for (const generated of [first, second]) if (generated.kind !== undefined) expect(generated.kind).toBe('generated');
    expect(second.value, 'each generated payload is new').not.toBe(first.value);
    const customer = await identifiers.attach(asset);
    for (const identifier of [first, second, customer]) await identifiers.expectResolves(identifier.value, asset, identifier.id);
    const location = await identifiers.location();
    const onLocation = await identifiers.generate(location);
    await identifiers.expectResolves(onLocation.value, location, onLocation.id);
  });

  test('resolution filters out a target whose module is disabled', { tag: ['@IDENT-003'] }, async ({ as, identifiers }) => {
    const client = as.moduleDisabled('parts_inventory');
    const onPart = await partIdentifierWhilePartsDisabled(client);
    expectProblem(await identifiers.resolve(onPart.value, client), 404);
    const asset = (await client.get<AssetList>('/assets', { query: { limit: 1 } })).body.data[0]!;
    expect(asset, 'the organization has an asset').toBeTruthy();
    const target: Target = { target_type: 'asset', target_id: asset.id };
    const onAsset = await attachIdentifier(client, target);
    await identifiers.expectResolves(onAsset.value, target, onAsset.id, client);
  });

  test('a retired identifier stops resolving and leaves the list; retiring again answers 204', { tag: ['@IDENT-004'] }, async ({ api, identifiers }) => {
    const asset = await identifiers.asset();
    const identifier = await identifiers.attach(asset);
    const kept = await identifiers.attach(asset);
    const retired = await api.delete(`/identifiers/${identifier.id}`);
    expect(retired.status).toBe(204);
    expect(retired.text).toBe('');
    expectProblem(await identifiers.resolve(identifier.value), 404);
    await identifiers.expectResolves(kept.value, asset, kept.id);
    const listed = await listedIds(api, { target_id: asset.target_id });
    expect(listed).not.toContain(identifier.id);
    expect(listed).toContain(kept.id);
    expect((await api.delete(`/identifiers/${identifier.id}`)).status).toBe(204);
    expectProblem(await api.delete(`/identifiers/idf_${UNKNOWN}`), 404);
  });

  test('only the exact payload resolves: case and surrounding whitespace matter', { tag: ['@IDENT-005'] }, async ({ identifiers }) => {
    const asset = await identifiers.asset();
    const identifier = await identifiers.attach(asset);
    const value: string = identifier.value;
    for (const variant of [value.toUpperCase(), value.toLowerCase(), ` ${value}`, `${value} `, `\t${value}`, `${value}\n`, value.slice(0, -1)]) {
      expectProblem(await identifiers.resolve(variant), 404);
    }
    await identifiers.expectResolves(value, asset, identifier.id);
  });

  test('an import with one conflicting, unknown-target or invalid entry imports none', { tag: ['@IDENT-006'] }, async ({ api, identifiers }) => {
    const asset = await identifiers.asset();
    const existing = await identifiers.attach(asset);
    const attempts: Array<[number, Array<Record<string, unknown>>]> = [
      [409, [{ value: freshValue(), ...asset }, { value: existing.value, ...asset }]],
      [409, [{ value: freshValue(), ...asset }, ...Array(2).fill({ value: freshValue(), ...asset })]], // one payload twice
      [404, [{ value: freshValue(), ...asset }, { value: freshValue(), target_type: 'asset', target_id: `ast_${UNKNOWN}` }]],
      [400, [{ value: freshValue(), ...asset }, { value: '', ...asset }]],
    ];
    for (const [status, entries] of attempts) {
      expectProblem(await api.post('/identifiers/import', { json: { identifiers: entries } }), status);
      for (const entry of entries) {
        if (entry.value === existing.value || entry.value === '') continue;
        expectProblem(await identifiers.resolve(entry.value as string), 404);
      }
    }
    const listed = (await walkPages<Identifier>(api, '/identifiers', { limit: 100, target_id: asset.target_id })).items;
    expect(listed.filter((i) => i.value === existing.value).map((i) => i.id), 'the existing identifier is unchanged').toEqual([existing.id]);
  });

  test('an import answers 201 with the identifiers in request order, each resolving to its target', { tag: ['@IDENT-010'] }, async ({ api, identifiers }) => {
    const entries = [
      { value: freshValue(), ...(await identifiers.location()) },
      { value: freshValue(), ...(await identifiers.asset()) },
      { value: freshValue(), ...(await identifiers.location()) },
    ];
    const imported = await api.post<IdentifierBatch>('/identifiers/import', { json: { identifiers: entries } });
    expect(imported.status).toBe(201);
    expect(imported.body.data.map((i: { value: string }) => i.value)).toEqual(entries.map((e) => e.value));
    for (const [i, identifier] of (imported.body.data as Array<Record<string, any>>).entries()) {
      const { value, ...target } = entries[i]!;
      expect(identifier).toMatchObject(entries[i]!);
      if (identifier.kind !== undefined) expect(identifier.kind).toBe('customer');
      await identifiers.expectResolves(value, target as Target, identifier.id);
    }
  });

  test("identifiers are organization-scoped: another organization's payloads do not resolve and are not listed", { tag: ['@IDENT-007'] }, async ({ api, as, identifiers }) => {
    const foreign = as.otherOrg();
    const ours = await identifiers.attach(await identifiers.asset());
    expectProblem(await identifiers.resolve(ours.value, foreign), 404);
    const theirAsset = (await foreign.get<AssetList>('/assets', { query: { limit: 1 } })).body.data[0]!;
    expect(theirAsset, 'the second organization has an asset').toBeTruthy();
    const theirTarget: Target = { target_type: 'asset', target_id: theirAsset.id };
    const theirs = await attachIdentifier(foreign, theirTarget);
    expectProblem(await identifiers.resolve(theirs.value), 404);
    const same = await attachIdentifier(foreign, theirTarget, ours.value);
    await identifiers.expectResolves(ours.value, theirTarget, same.id, foreign);
    await identifiers.expectResolves(ours.value, { target_type: 'asset', target_id: ours.target_id }, ours.id);
    const ourList = await listedIds(api);
    expect(ourList).toContain(ours.id);
    expect(ourList).not.toContain(theirs.id);
    expect(ourList).not.toContain(same.id);
    const theirList = await listedIds(foreign);
    expect(theirList).toContain(theirs.id);
    expect(theirList).not.toContain(ours.id);
  });

  test('the list filters by target_type and target_id', { tag: ['@IDENT-008'] }, async ({ api, identifiers }) => {
    const [a, b] = await identifiers.twoAssets();
    const location = await identifiers.location();
    const onA = [await identifiers.attach(a), await identifiers.generate(a)];
    const onB = await identifiers.attach(b);
    const onLocation = await identifiers.attach(location);
    const byTarget = (await walkPages<Identifier>(api, '/identifiers', { limit: 100, target_type: 'asset', target_id: a.target_id })).items;
    expect(byTarget.map((i) => i.id)).toEqual(expect.arrayContaining(onA.map((i) => i.id)));
    expect(byTarget.map((i) => i.id)).not.toContain(onB.id);
    for (const i of byTarget) expect(i).toMatchObject(a);
    const byId = (await walkPages<Identifier>(api, '/identifiers', { limit: 100, target_id: b.target_id })).items;
    expect(byId.map((i) => i.id)).toContain(onB.id);
    for (const i of byId) expect(i.target_id).toBe(b.target_id);
    const byType = (await walkPages<Identifier>(api, '/identifiers', { limit: 100, target_type: 'location' })).items;
    expect(byType.map((i) => i.id)).toContain(onLocation.id);
    expect(byType.map((i) => i.id)).not.toContain(onB.id);
    for (const i of byType) expect(i.target_type).toBe('location');
    expectProblem(await api.get('/identifiers', { query: { target_type: 'vendor' } }), 400, 'validation_error');
  });

  test('attaching or generating for a target the organization does not have answers 404', { tag: ['@IDENT-009'] }, async ({ api, as, identifiers }) => {
    const value = freshValue();
    for (const [target_type, target_id] of [['asset', `ast_${UNKNOWN}`], ['location', `loc_${UNKNOWN}`]]) {
      expectProblem(await api.post('/identifiers', { json: { value, target_type, target_id } }), 404);
      expectProblem(await api.post('/identifiers/generate', { json: { target_type, target_id } }), 404);
    }
    const theirAsset = await foreignRecord(as.otherOrg(), '/assets');
    expectProblem(await api.post('/identifiers', { json: { value, target_type: 'asset', target_id: theirAsset.id } }), 404);
    expectProblem(await identifiers.resolve(value), 404);
  });
});

test.describe('identifiers while Parts Inventory is disabled', () => {
  test('writes and lists for part targets answer 403 module_disabled; other targets still work', { tag: ['@MODULE-010'] }, async ({ as, identifiers }) => {
    const client = as.moduleDisabled('parts_inventory');
    const part: Target = { target_type: 'part', target_id: `prt_${UNKNOWN}` };
    const asset = (await client.get<AssetList>('/assets', { query: { limit: 1 } })).body.data[0]!;
    expect(asset, 'the organization has an asset').toBeTruthy();
    const onAsset: Target = { target_type: 'asset', target_id: asset.id };
    const skipped = freshValue();
    expectProblem(await client.get('/identifiers', { query: { target_type: 'part' } }), 403, 'module_disabled');
    expectProblem(await client.post('/identifiers', { json: { value: freshValue(), ...part } }), 403, 'module_disabled');
    expectProblem(await client.post('/identifiers/generate', { json: part }), 403, 'module_disabled');
    expectProblem(await client.post('/identifiers/import', { json: { identifiers: [{ value: skipped, ...onAsset }, { value: freshValue(), ...part }] } }), 403, 'module_disabled');
    expectProblem(await identifiers.resolve(skipped, client), 404);
    await attachIdentifier(client, onAsset);
    expect((await client.get('/identifiers', { query: { target_type: 'asset', limit: 1 } })).status).toBe(200);
  });

  test('the unfiltered list shows identifiers of part targets, and retiring one stays available', { tag: ['@MODULE-011', '@IDENT-011'] }, async ({ as, identifiers }) => {
    const client = as.moduleDisabled('parts_inventory');
    const onPart = await partIdentifierWhilePartsDisabled(client, { consume: true });
    const retired = await client.delete(`/identifiers/${onPart.id}`);
    expect(retired.status, retired.text).toBe(204);
    expect(await listedIds(client)).not.toContain(onPart.id);
    expectProblem(await identifiers.resolve(onPart.value, client), 404);
  });
});
