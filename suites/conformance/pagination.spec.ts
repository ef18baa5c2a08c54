/**
 * Native list pagination (Endpoints: limit, cursor, direction; Limits › Pagination), proved on the native
 * lists of the description the suite can fill or find filled: meters and native work orders (created
 * through the API) and assets (the API has no stated asset create: the records that exist are used).
 * Other tests add and remove records meanwhile: comparisons keep to records seen on both sides, and
 * counts are taken under filters other tests only add to.
 */
import { proves } from '../lib/proves.ts';
import { test, expect } from '../kits/meters.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { continuingCursor, cutShort, issuedCursor, walkPages, type IssuedCursor } from '../lib/walk-pages.ts';
import { rotatingShare } from '../lib/operations.ts';
import { notAssessed } from '../lib/needs.ts';
import { createMeter } from '../kits/meters.ts';
import { createWorkOrder } from '../kits/work-orders.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import type { Roles } from '../fixtures.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import type { DataPage } from '../lib/api-types.ts';

type Query = Record<string, string>;
/** A page of a native list: the tests read its records' ids and its pagination. */
type Listed = DataPage<{ id: string }>;
/** What a misuse of a cursor needs: the main key, the other roles, the profile. */
type Misuse = { api: ApiClient; as: Roles; profile: TargetProfile };

interface NativeList {
  path: string;
  /** Creates one record matching `counted`, when the API can create records of this list. */
  create?: (api: ApiClient, profile: TargetProfile) => Promise<Record<string, any>>;
  /** A filter, with a value that narrows the list to at least one record. */
  filter(api: ApiClient, profile: TargetProfile): Promise<Query>;
  /** A filter other tests only add records to (never remove any), for walks whose length is counted. */
  counted: Query;
  /** Another list endpoint, for the endpoint binding of cursors. */
  other(api: ApiClient, profile: TargetProfile): Promise<string>;
}

/**
 * Makes sure the list holds at least `n` records under `query`, creating them when the API allows;
 * returns how many it holds (at least `n`).
 */
async function ensure(api: ApiClient, profile: TargetProfile, list: NativeList, n: number, query: Query = {}): Promise<number> {
  const page = await api.get<Listed>(list.path, { query: { ...query, limit: 1 } });
  const have = page.body.meta.pagination.total_count ?? (await walkPages<{ id: string }>(api, list.path, { ...query, limit: 100 })).items.length;
  if (have >= n) return have;
  if (!list.create) notAssessed(`${list.path} holds ${have} records; this test needs ${n} and the API cannot create them`);
  for (let i = have; i < n; i++) await list.create(api, profile);
  return n;
}

/** The first page whose cursor the misuse tests share: one record, ascending (PAGE-017..022). */
const FIRST_PAGE = { limit: 1, direction: 'asc' } as const;

/**
 * Issues a cursor of `list` on its first page of one record, shared by the misuse tests of a worker
 * (suites/lib/walk-pages.ts): a page with `has_more` (two records or more), after creating records
 * when the list holds fewer than three; skips the test (not assessed) when that page names no cursor.
 */
function firstPageCursor(api: ApiClient, profile: TargetProfile, list: NativeList): () => Promise<IssuedCursor> {
  return async () => {
    let page = await api.get<Listed>(list.path, { query: FIRST_PAGE });
    if (page.body?.meta?.pagination?.has_more !== true) {
      await ensure(api, profile, list, 3);
      page = await api.get<Listed>(list.path, { query: FIRST_PAGE });
    }
    const cursor = page.body?.meta?.pagination?.cursor;
    if (typeof cursor !== 'string') notAssessed('the first page of one record names no cursor; has_more and cursors are judged by the walk tests');
    return { cursor };
  };
}

/**
 * Invalid values, one of each kind per list, rotated over the lists so every value reaches one: each
 * list is refused a value below the range, above it and not an integer (PAGE-003, PAGE-013); `index`
 * is the list's position.
 */
function badLimits(index: number, above: string, notInteger = 1): string[] {
  return [...rotatingShare(['0', '-1'], index, 1), above, ...rotatingShare(['1.5', 'ten', ''], index, notInteger)];
}

const LISTS: NativeList[] = [
  {
    path: '/meters',
    create: (api, profile) => createMeter(api, profile),
    filter: async (api, profile) => ({ asset_id: (await createMeter(api, profile)).asset_id! }),
    counted: {},
    other: async (api, profile) => `/meters/${(await createMeter(api, profile)).id}/readings`,
  },
  {
    path: '/work-orders',
    // Other tests soft-delete work orders, never critical ones: counted walks keep to critical work orders.
    create: (api, profile) => createWorkOrder(api, profile, { priority: 'critical' }),
    filter: async (api, profile) => {
      await createWorkOrder(api, profile, { priority: 'high' });
      return { priority: 'high' };
    },
    counted: { priority: 'critical' },
    other: async () => '/assets',
  },
  {
    path: '/assets',
    filter: async () => ({ status: 'online' }),
    counted: {},
    other: async () => '/work-orders',
  },
];

for (const [index, list] of LISTS.entries()) {
  test.describe(`native list ${list.path}`, () => {
    test('limit defaults to 20', { tag: ['@PAGE-001'] }, async ({ api, profile }) => {
      // The default page first: a list that already holds more than 20 records needs no count.
      let page = await api.get<Listed>(list.path);
      if (page.body?.meta?.pagination?.has_more !== true) {
        await ensure(api, profile, list, 21);
        page = await api.get<Listed>(list.path);
      }
      expect(page.body.data).toHaveLength(20);
      expect(page.body.meta.pagination.has_more).toBe(true);
    });

    test('limit 1 to 100 bounds the page', { tag: ['@PAGE-002'] }, async ({ api, profile }) => {
      let one = await api.get<Listed>(list.path, { query: { limit: 1 } });
      if (one.body?.meta?.pagination?.has_more !== true) {
        await ensure(api, profile, list, 2);
        one = await api.get<Listed>(list.path, { query: { limit: 1 } });
      }
      expect(one.body.data).toHaveLength(1);
      const hundred = await api.get<Listed>(list.path, { query: { limit: 100 } });
      expect(hundred.status).toBe(200);
      expect(hundred.body.data.length).toBeLessThanOrEqual(100);
    });

    test('limit outside 1..100 or not an integer answers 400', { tag: ['@PAGE-003'] }, async ({ api }) => {
      // One value below 1, 101, one not an integer: every list each kind, the six values over the three lists.
      for (const limit of badLimits(index, '101')) {
        expectProblem(await api.get(list.path, { query: { limit } }), 400, 'validation_error');
      }
    });

    test('walking the cursor returns every record once, has_more false only at the end', { tag: ['@PAGE-004', '@PAGE-005', '@PAGE-008', '@PAGE-028'] }, async ({ api, profile }) => {
      const have = await ensure(api, profile, list, 15, list.counted);
      // Pages of half the records counted: two pages (three when other tests add records meanwhile), so a
      // page after the first and the last page are read; one page boundary proves has_more, the cursor's
      // continuation and the count as many would (a record skipped or repeated at a boundary shows at any).
      const walk = await walkPages<{ id: string }>(api, list.path, { ...list.counted, limit: Math.min(100, Math.ceil(have / 2)) });
      const ids = walk.items.map((r) => r.id);
      expect(new Set(ids).size, proves(['PAGE-005'], 'no record twice')).toBe(ids.length);
      walk.pages.slice(0, -1).forEach((p) => expect(p.body.meta.pagination.has_more, proves(['PAGE-004'], 'has_more before the last page')).toBe(true));
      expect(walk.pages.at(-1)!.body.meta.pagination.has_more, proves(['PAGE-004'], 'has_more on the last page')).toBe(false);
      const before = walk.pages[0]!.body.meta.pagination.total_count;
      const after = walk.pages.at(-1)!.body.meta.pagination.total_count;
      for (const page of walk.pages) {
        const count = page.body.meta.pagination.total_count;
        if (count !== undefined) expect(Number.isInteger(count), proves(['PAGE-008'], `total_count ${JSON.stringify(count)} is an integer`)).toBe(true);
      }
      if (before !== undefined && after !== undefined) {
        // Other tests may add records meanwhile: the walk holds at least the first count, at most the last.
        // What total_count counts is not stated (its name and type are): a walk that disagrees with it
        // fails the inferred reading, PAGE-028, never the walk's own rule.
        expect(ids.length, proves(['PAGE-028'], 'the walk holds at least total_count records')).toBeGreaterThanOrEqual(before);
        expect(ids.length, proves(['PAGE-028'], 'the walk holds at most the last total_count records')).toBeLessThanOrEqual(after);
      }
    });

    test('desc is the exact reverse of asc', { tag: ['@PAGE-006', '@PAGE-025'] }, async ({ api, profile }) => {
      const query = await list.filter(api, profile);
      // Page sizes that differ, so page boundaries differ between the walks. The asc walk reads pages of
      // 12; the desc and default walks pages of about half of what it read: two pages each (three when
      // records are added meanwhile), so each continues its cursor across a boundary in its own direction
      // (more boundaries of the same walk prove no more: the mutual order is compared record by record).
      const asc = await walkPages<{ id: string }>(api, list.path, { ...query, limit: 12, direction: 'asc' });
      const half = Math.min(100, Math.max(1, Math.ceil(asc.items.length / 2)));
      const desc = await walkPages<{ id: string }>(api, list.path, { ...query, limit: half, direction: 'desc' }, ['PAGE-006']);
      const plain = await walkPages<{ id: string }>(api, list.path, { ...query, limit: Math.min(100, half + 1) });
      // Records other tests add or remove meanwhile are left out of the comparison.
      const a = asc.items.map((r) => r.id);
      const d = desc.items.map((r) => r.id);
      const p = plain.items.map((r) => r.id);
      expect(d.filter((id) => a.includes(id)), proves(['PAGE-006'], 'desc is the reverse of asc')).toEqual(a.filter((id) => d.includes(id)).reverse());
      expect(p.filter((id) => a.includes(id)), proves(['PAGE-025'], 'no direction is asc')).toEqual(a.filter((id) => p.includes(id)));
      expect(a.filter((id) => d.includes(id)).length, proves(['PAGE-006'], 'asc and desc share records')).toBeGreaterThan(0);
    });

    test('a direction other than asc or desc answers 400', { tag: ['@PAGE-007'] }, async ({ api }) => {
      // Two of the four values per list, rotated so each value reaches a list.
      for (const direction of rotatingShare(['up', 'ASC', 'descending', ''], index, 2)) expectProblem(await api.get(list.path, { query: { direction } }), 400, 'validation_error');
    });

    if (list.create) {
      const create = list.create;
      test('a record created after a page was read appears later, in id order', { tag: ['@PAGE-029'] }, async ({ api, profile }) => {
        const have = await ensure(api, profile, list, 3, list.counted);
        // About a third of the list per page (a cursor keeps its page size): the first page leaves more to read, the rest takes few pages.
        const limit = Math.min(100, Math.max(2, Math.ceil(have / 3)));
        const first = await api.get<Listed>(list.path, { query: { ...list.counted, limit } });
        const created = await create(api, profile);
        let cursor = first.body.meta.pagination.cursor;
        const rest: string[] = [];
        for (let more = first.body.meta.pagination.has_more; more; ) {
          const page = await api.get<Listed>(list.path, { query: { ...list.counted, limit, cursor } });
          rest.push(...page.body.data.map((r: { id: string }) => r.id));
          ({ has_more: more, cursor } = page.body.meta.pagination);
        }
        expect(rest).toContain(created.id);
      });
    }

    // One test per binding, so a service that ignores one binding fails only that requirement. The tests
    // share the worker's first-page cursor; each sends it once as issued before misusing it.
    const key = (api: ApiClient) => `${api.session.baseUrl}${list.path}?limit=1&direction=asc`;
    const bindings: Array<[tag: string, what: string, misuse: (c: Misuse, cursor: string) => Promise<ApiResponse>]> = [
      ['@PAGE-017', 'endpoint', async ({ api, profile }, cursor) => api.get(await list.other(api, profile), { query: { limit: 1, direction: 'asc', cursor } })],
      ['@PAGE-018', 'filters', async ({ api, profile }, cursor) => api.get(list.path, { query: { ...(await list.filter(api, profile)), limit: 1, direction: 'asc', cursor } })],
      ['@PAGE-019', 'page size', ({ api }, cursor) => api.get(list.path, { query: { limit: 2, direction: 'asc', cursor } })],
      ['@PAGE-020', 'direction', ({ api }, cursor) => api.get(list.path, { query: { limit: 1, direction: 'desc', cursor } })],
      ['@PAGE-021', 'organization', ({ as }, cursor) => as.otherOrg().get(list.path, { query: { limit: 1, direction: 'asc', cursor } })],
    ];
    for (const [tag, what, misuse] of bindings) {
      test(`a cursor is bound to its ${what}`, { tag: [tag] }, async ({ api, profile, as }) => {
        const { cursor } = await continuingCursor(key(api), firstPageCursor(api, profile, list), (c) => api.get(list.path, { query: { ...FIRST_PAGE, cursor: c } }));
        expectProblem(await misuse({ api, profile, as }, cursor), 400, 'validation_error');
      });
    }

    test('a cursor the service did not issue answers 400', { tag: ['@PAGE-022'] }, async ({ api, profile }) => {
      const { cursor } = await issuedCursor(key(api), firstPageCursor(api, profile, list));
      // Not a cursor, a foreign token, an issued cursor cut short. Not an issued cursor with a character changed or
      // added: the description makes cursors opaque and bound, not tamper-evident (docs/freedoms.md, long-cursors).
      // Each is sent with the query the cursor was issued for, so only its being unreadable can refuse it.
      for (const bad of ['garbage', 'eyJpZCI6IjEyMyJ9', cutShort(cursor)]) {
        expectProblem(await api.get(list.path, { query: { ...FIRST_PAGE, cursor: bad } }), 400, 'validation_error');
      }
    });
  });
}
