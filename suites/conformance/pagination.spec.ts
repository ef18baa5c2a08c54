/**
 * Native list pagination (Endpoints: limit, cursor, direction; Limits › Pagination), proved on every
 * native list of the description that the suite can fill itself.
 */
import { test, expect } from '../kits/meters.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { walkPages } from '../lib/walk-pages.ts';
import { createMeter } from '../kits/meters.ts';
import type { ApiClient } from '../lib/client.ts';
import type { TargetProfile } from '../../spec/lib/profile.ts';

interface NativeList {
  path: string;
  /** Makes sure the list holds at least `n` records (creating them when the API allows). */
  ensure(api: ApiClient, profile: TargetProfile, n: number): Promise<void>;
  /** A filter with a value that narrows the list, and the field it matches. */
  filter?: (api: ApiClient, profile: TargetProfile) => Promise<{ query: Record<string, string>; field: string }>;
  other: string;
}

async function ensureByCreating(api: ApiClient, path: string, n: number, create: () => Promise<unknown>): Promise<void> {
  const page = await api.get(path, { query: { limit: 1 } });
  const have = page.body.meta.pagination.total_count ?? (await walkPages(api, path, { limit: 100 })).items.length;
  for (let i = have; i < n; i++) await create();
}

const LISTS: NativeList[] = [
  {
    path: '/meters',
    ensure: (api, profile, n) => ensureByCreating(api, '/meters', n, () => createMeter(api, profile)),
    filter: async (api, profile) => {
      const meter = await createMeter(api, profile);
      return { query: { asset_id: meter.asset_id }, field: 'asset_id' };
    },
    other: '/meters',
  },
];

for (const list of LISTS) {
  test.describe(`native list ${list.path}`, () => {
    test('limit defaults to 20', { tag: ['@PAGE-001'] }, async ({ api, profile }) => {
      await list.ensure(api, profile, 21);
      const page = await api.get(list.path);
      expect(page.body.data).toHaveLength(20);
      expect(page.body.meta.pagination.has_more).toBe(true);
    });

    test('limit 1 to 100 bounds the page', { tag: ['@PAGE-002'] }, async ({ api, profile }) => {
      await list.ensure(api, profile, 2);
      expect((await api.get(list.path, { query: { limit: 1 } })).body.data).toHaveLength(1);
      const hundred = await api.get(list.path, { query: { limit: 100 } });
      expect(hundred.status).toBe(200);
      expect(hundred.body.data.length).toBeLessThanOrEqual(100);
    });

    test('limit outside 1..100 or not an integer answers 400', { tag: ['@PAGE-003'] }, async ({ api }) => {
      for (const limit of ['0', '101', '-1', '1.5', 'ten', '']) {
        expectProblem(await api.get(list.path, { query: { limit } }), 400, 'validation_error');
      }
    });

    test('walking the cursor returns every record once, has_more false only at the end', { tag: ['@PAGE-004', '@PAGE-005', '@PAGE-008'] }, async ({ api, profile }) => {
      await list.ensure(api, profile, 15);
      const walk = await walkPages(api, list.path, { limit: 7 });
      const ids = walk.items.map((r) => r.id);
      expect(new Set(ids).size, 'no record twice').toBe(ids.length);
      walk.pages.slice(0, -1).forEach((p) => expect(p.body.meta.pagination.has_more).toBe(true));
      expect(walk.pages.at(-1)!.body.meta.pagination.has_more).toBe(false);
      const before = walk.pages[0]!.body.meta.pagination.total_count;
      const after = walk.pages.at(-1)!.body.meta.pagination.total_count;
      if (before !== undefined && after !== undefined) {
        // Other tests may add records meanwhile: the walk holds at least the first count, at most the last.
        expect(ids.length).toBeGreaterThanOrEqual(before);
        expect(ids.length).toBeLessThanOrEqual(after);
      }
    });

    test('desc is the exact reverse of asc', { tag: ['@PAGE-006', '@PAGE-025'] }, async ({ api, profile }) => {
      const { query } = list.filter ? await list.filter(api, profile) : { query: {} };
      const asc = await walkPages(api, list.path, { ...query, limit: 3, direction: 'asc' });
      const desc = await walkPages(api, list.path, { ...query, limit: 4, direction: 'desc' });
      const plain = await walkPages(api, list.path, { ...query, limit: 5 });
      // Records other tests add meanwhile are left out of the comparison.
      const a = asc.items.map((r) => r.id);
      const d = desc.items.map((r) => r.id);
      const p = plain.items.map((r) => r.id);
      expect(d.filter((id) => a.includes(id))).toEqual(a.filter((id) => d.includes(id)).reverse());
      expect(p.filter((id) => a.includes(id))).toEqual(a.filter((id) => p.includes(id)));
      expect(a.filter((id) => d.includes(id)).length).toBeGreaterThan(0);
    });

    test('a direction other than asc or desc answers 400', { tag: ['@PAGE-007'] }, async ({ api }) => {
      for (const direction of ['up', 'ASC', 'descending', '']) expectProblem(await api.get(list.path, { query: { direction } }), 400, 'validation_error');
    });

    test('a record created after a page was read appears later, in id order', { tag: ['@PAGE-009'] }, async ({ api, profile }) => {
      await list.ensure(api, profile, 3);
      const first = await api.get(list.path, { query: { limit: 2 } });
      const created = await createMeter(api, profile);
      let cursor = first.body.meta.pagination.cursor;
      const rest: string[] = [];
      for (let more = first.body.meta.pagination.has_more; more; ) {
        const page = await api.get(list.path, { query: { limit: 2, cursor } });
        rest.push(...page.body.data.map((r: { id: string }) => r.id));
        ({ has_more: more, cursor } = page.body.meta.pagination);
      }
      expect(rest).toContain(created.id);
    });

    test('a cursor is bound to its endpoint, filters, page size, direction and organization', { tag: ['@PAGE-017', '@PAGE-018', '@PAGE-019', '@PAGE-020', '@PAGE-021'] }, async ({ api, profile, as }) => {
      await list.ensure(api, profile, 3);
      const first = await api.get(list.path, { query: { limit: 1, direction: 'asc' } });
      const cursor = first.body.meta.pagination.cursor as string;
      expect((await api.get(list.path, { query: { limit: 1, direction: 'asc', cursor } })).status, 'the same request continues').toBe(200);
      const meter = await createMeter(api, profile);
      expectProblem(await api.get(`/meters/${meter.id}/readings`, { query: { limit: 1, direction: 'asc', cursor } }), 400, 'validation_error');
      if (list.filter) {
        const { query } = await list.filter(api, profile);
        expectProblem(await api.get(list.path, { query: { ...query, limit: 1, direction: 'asc', cursor } }), 400, 'validation_error');
      }
      expectProblem(await api.get(list.path, { query: { limit: 2, direction: 'asc', cursor } }), 400, 'validation_error');
      expectProblem(await api.get(list.path, { query: { limit: 1, direction: 'desc', cursor } }), 400, 'validation_error');
      expectProblem(await as.otherOrg().get(list.path, { query: { limit: 1, direction: 'asc', cursor } }), 400, 'validation_error');
    });

    test('a cursor the service did not issue answers 400', { tag: ['@PAGE-022'] }, async ({ api, profile }) => {
      await list.ensure(api, profile, 2);
      const cursor = (await api.get(list.path, { query: { limit: 1 } })).body.meta.pagination.cursor as string;
      const flipped = cursor.slice(0, -1) + (cursor.endsWith('A') ? 'B' : 'A');
      for (const bad of ['garbage', flipped, `${cursor}x`, 'eyJpZCI6IjEyMyJ9']) {
        expectProblem(await api.get(list.path, { query: { limit: 1, cursor: bad } }), 400, 'validation_error');
      }
    });
  });
}
