/**
 * Locations (Resources › Asset and location: `parentId` read and written, `childrenIds` on the detail,
 * one parent level with one sub-location level; Errors: 409 `invalid_location_hierarchy`). Every
 * location route is inferred, so these requirements are inferred too.
 */
import { test, expect } from '../kits/locations.ts';
import { foreignRecord } from '../lib/foreign.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkPages } from '../lib/walk-pages.ts';
import type { Location, LocationEnvelope } from '../lib/api-types.ts';

const UNKNOWN = 'loc_doesnotexist0000';
const HIERARCHY = 'invalid_location_hierarchy';

test.describe('locations', () => {
  test('a location is created (201), read and updated (200), with parentId read and written', { tag: ['@LOC-001'] }, async ({ api, locations }) => {
    const top = await locations.create({ address: '1 Conformance Way' });
    expect(top.parentId ?? null).toBeNull();
    const other = await locations.create();
    expect(await locations.read(top.id)).toMatchObject({ id: top.id, name: top.name, address: '1 Conformance Way' });
    const moved = await api.patch<LocationEnvelope>(`/locations/${top.id}`, { json: { name: `${top.name} moved`, parentId: other.id } });
    expect(moved.status, moved.text.slice(0, 300)).toBe(200);
    expect(moved.body.data).toMatchObject({ id: top.id, name: `${top.name} moved`, parentId: other.id });
    expect(await locations.read(top.id)).toMatchObject({ name: `${top.name} moved`, parentId: other.id, address: '1 Conformance Way' });
    const lifted = await api.patch(`/locations/${top.id}`, { json: { parentId: null } });
    expect(lifted.status).toBe(200);
    expect((await locations.read(top.id)).parentId ?? null).toBeNull();
  });

  test('an unknown location answers 404 to GET and PATCH', { tag: ['@LOC-001'] }, async ({ api }) => {
    expectProblem(await api.get(`/locations/${UNKNOWN}`), 404);
    expectProblem(await api.patch(`/locations/${UNKNOWN}`, { json: { name: 'nowhere' } }), 404);
  });

  test('the location detail lists its sub-locations in childrenIds', { tag: ['@LOC-002'] }, async ({ api, locations }) => {
    const { parent, child } = await locations.family();
    expect(child.parentId).toBe(parent.id);
    const second = await locations.create({ parentId: parent.id });
    expect([...(await locations.read(parent.id)).childrenIds!].sort()).toEqual([child.id, second.id].sort());
    expect((await locations.read(child.id)).childrenIds).toEqual([]);
    expect((await api.patch(`/locations/${second.id}`, { json: { parentId: null } })).status).toBe(200);
    expect((await locations.read(parent.id)).childrenIds).toEqual([child.id]);
    const listed = await walkPages<Location>(api, '/locations', { limit: 100 });
    expect(listed.items.find((l) => l.id === child.id)).toMatchObject({ parentId: parent.id });
  });

  test('a location under a sub-location (a third level) answers 409 and changes nothing', { tag: ['@LOC-003'] }, async ({ api, locations }) => {
    const { parent, child } = await locations.family();
    const name = `CT third level ${parent.id}`;
    expectProblem(await api.post('/locations', { json: { name, parentId: child.id } }), 409, HIERARCHY);
    const lone = await locations.create();
    expectProblem(await api.patch(`/locations/${lone.id}`, { json: { parentId: child.id } }), 409, HIERARCHY);
    expect((await locations.read(lone.id)).parentId ?? null).toBeNull();
    expect((await locations.read(child.id)).childrenIds).toEqual([]);
    const listed = await walkPages<Location>(api, '/locations', { limit: 100 });
    expect(listed.items.map((l) => l.name)).not.toContain(name);
  });

  test('a location with sub-locations cannot be moved under another location', { tag: ['@LOC-004'] }, async ({ api, locations }) => {
    const { parent, child } = await locations.family();
    const other = await locations.create();
    expectProblem(await api.patch(`/locations/${parent.id}`, { json: { parentId: other.id } }), 409, HIERARCHY);
    expect((await locations.read(parent.id)).parentId ?? null).toBeNull();
    expect((await locations.read(parent.id)).childrenIds).toEqual([child.id]);
    expect((await locations.read(other.id)).childrenIds).toEqual([]);
  });

  test('a location cannot be its own parent', { tag: ['@LOC-005'] }, async ({ api, locations }) => {
    const { parent, child } = await locations.family();
    expectProblem(await api.patch(`/locations/${parent.id}`, { json: { parentId: parent.id } }), 409, HIERARCHY);
    expectProblem(await api.patch(`/locations/${child.id}`, { json: { parentId: child.id } }), 409, HIERARCHY);
    expect((await locations.read(parent.id)).parentId ?? null).toBeNull();
    expect((await locations.read(child.id)).parentId).toBe(parent.id);
  });

  test("a parentId the organization does not have answers 404", { tag: ['@LOC-006'] }, async ({ api, as, locations }) => {
    const foreign = await foreignRecord(as.otherOrg(), '/locations');
    const lone = await locations.create();
    for (const parentId of [UNKNOWN, foreign.id]) {
      expectProblem(await api.post('/locations', { json: { name: `CT orphan ${lone.id}`, parentId } }), 404);
      expectProblem(await api.patch(`/locations/${lone.id}`, { json: { parentId } }), 404);
    }
    expect((await locations.read(lone.id)).parentId ?? null).toBeNull();
  });
});
