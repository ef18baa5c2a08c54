/**
 * Compatibility list pagination (Limits › Pagination: encoded offset cursor, `nextCursor`,
 * `nextPageUrl`; Limits: default 100, max 200), proved on both compatibility lists: work requests and
 * request portals. Other tests create and delete records concurrently, which may shift later pages
 * (PAGE-026), so the walks are compared on the first default page, the oldest records.
 */
import { test, expect, type Roles } from '../fixtures.ts';
import { notAssessed } from '../lib/needs.ts';
import type { ApiClient } from '../lib/client.ts';
import { expectProblem } from '../lib/expect-problem.ts';
import { continuingCursor, cutShort, issuedCursor, walkCompatPages, type IssuedCursor } from '../lib/walk-pages.ts';
import { rotatingShare } from '../lib/operations.ts';
import type { ApiResponse } from '../lib/client.ts';
import { uid, viaInferred } from '../lib/provision.ts';
import type { PortalList, PortalWrapper, WorkRequestList, WorkRequestWrapper } from '../lib/api-types.ts';

/** A page of either list, its records read under `list.wrapper` (a page holds its own list's array only). */
type Page = WorkRequestList & PortalList;

interface CompatList {
  path: string;
  wrapper: 'workRequests' | 'workRequestPortals';
  /** The other compatibility list (a cursor of this one is refused there). */
  other: string;
  /** A filter of this list, when it has one. */
  filter?: Record<string, string>;
  /** Creates one record through the list's inferred create route; returns its id. */
  create(api: ApiClient): Promise<string>;
}

const LISTS: CompatList[] = [
  {
    path: '/workrequests',
    wrapper: 'workRequests',
    other: '/workrequestportals',
    filter: { priority: 'HIGH' },
    create: async (api) => (await viaInferred('creating a work request', (c) => c.post<WorkRequestWrapper>('/workrequests', { json: { title: `CT page ${uid()}` } }), api)).body.workRequest.id,
  },
  {
    path: '/workrequestportals',
    wrapper: 'workRequestPortals',
    other: '/workrequests',
    create: async (api) => (await viaInferred('creating a request portal', (c) => c.post<PortalWrapper>('/workrequestportals', { json: { title: `CT page ${uid()}` } }), api)).body.workRequestPortal.id,
  },
];

const ids = (page: { body: Page }, wrapper: CompatList['wrapper']): string[] => page.body[wrapper].map((r: { id: string }) => r.id);

/**
 * Page size of the walks: below 50, so a list of more than 100 records takes three pages or more, and
 * not a divisor of 100, so page boundaries fall apart from the default page's end.
 */
const WALK_LIMIT = 47;

/** The first page whose cursor the misuse tests share: two records (PAGE-017..019, 021, 022). */
const FIRST_PAGE = { limit: 2 } as const;

for (const [index, list] of LISTS.entries()) {
  /** Makes sure the list holds more than `n` records, creating them when it has fewer. */
  const ensureMoreThan = async (api: ApiClient, n: number) => {
    const have = (await walkCompatPages<{ id: string }>(api, list.path, list.wrapper, { limit: 200 })).items.length;
    for (let i = have; i <= n; i++) await list.create(api);
  };

  /**
   * The page `query` asks for, read again after `ensureMoreThan(n)` only when it names no next page (a
   * list that already holds more records than the page needs no count).
   */
  const pageWithMore = async (api: ApiClient, n: number, query: Record<string, string | number> = {}): Promise<ApiResponse<Page>> => {
    const page = await api.get<Page>(list.path, { query });
    if (typeof page.body?.nextCursor === 'string') return page;
    await ensureMoreThan(api, n);
    return api.get<Page>(list.path, { query });
  };

  /** Issues the worker's shared cursor: a first page of two records that names a next page. */
  const firstPageCursor = (api: ApiClient) => async (): Promise<IssuedCursor> => {
    const page = await pageWithMore(api, 3, FIRST_PAGE);
    if (typeof page.body.nextCursor !== 'string') notAssessed('the first page of two records names no next cursor; walking is judged by the walk tests');
    return { cursor: page.body.nextCursor };
  };
  const key = (api: ApiClient) => `${api.session.baseUrl}${list.path}?limit=2`;

  test.describe(`compatibility list ${list.path}`, () => {
    test('without limit a page holds exactly 100 records when more exist', { tag: ['@PAGE-012'] }, async ({ api }) => {
      const page = await pageWithMore(api, 100);
      expect(page.body[list.wrapper]).toHaveLength(100);
      expect(typeof page.body.nextCursor).toBe('string');
    });

    test('limit 1 to 200 bounds the page; below 1, above 200 or not an integer answers 400', { tag: ['@PAGE-013'] }, async ({ api }) => {
      expect((await pageWithMore(api, 2, { limit: 1 })).body[list.wrapper]).toHaveLength(1);
      const max = await api.get<Page>(list.path, { query: { limit: 200 } });
      expect(max.status).toBe(200);
      expect(max.body[list.wrapper].length).toBeLessThanOrEqual(200);
      if (max.body.nextCursor !== null) expect(max.body[list.wrapper]).toHaveLength(200);
      // One value below 1, 201, two not integers: every list each kind, the six values over the two lists.
      for (const limit of [...rotatingShare(['0', '-1'], index, 1), '201', ...rotatingShare(['1.5', 'ten', ''], index, 2)]) {
        expectProblem(await api.get(list.path, { query: { limit } }), 400, 'validation_error');
      }
    });

    test('walking nextCursor returns every record once; only the final page nulls both links', { tag: ['@PAGE-014', '@PAGE-015'] }, async ({ api }) => {
      const oldest = ids(await pageWithMore(api, 100), list.wrapper);
      const walk = await walkCompatPages<{ id: string }>(api, list.path, list.wrapper, { limit: WALK_LIMIT });
      const walked = walk.items.map((r: { id: string }) => r.id);
      expect(new Set(walked).size, 'no record twice').toBe(walked.length);
      expect(walked.filter((id) => oldest.includes(id)), 'the oldest records, each once, in order').toEqual(oldest);
      for (const page of walk.pages.slice(0, -1)) {
        expect(typeof page.body.nextCursor).toBe('string');
        expect(typeof page.body.nextPageUrl).toBe('string');
      }
      expect(walk.pages.length).toBeGreaterThan(2);
      expect(walk.pages.at(-1)!.body).toMatchObject({ nextCursor: null, nextPageUrl: null });
    });

    test('nextPageUrl is followable and gives the same page as nextCursor', { tag: ['@PAGE-016'] }, async ({ api }) => {
      const oldest = ids(await pageWithMore(api, 100), list.wrapper);
      const first = await api.get<Page>(list.path, { query: { limit: WALK_LIMIT } });
      const byUrl = await api.get<Page>(first.body.nextPageUrl!);
      const byCursor = await api.get<Page>(list.path, { query: { limit: WALK_LIMIT, cursor: first.body.nextCursor! } });
      expect(byUrl.status).toBe(200);
      expect(ids(byUrl, list.wrapper)).toEqual(ids(byCursor, list.wrapper));
      expect(ids(byUrl, list.wrapper)).toHaveLength(WALK_LIMIT);
      // The same walk goes on by nextPageUrl from the page the first URL gave, to the final page.
      const rest = await walkCompatPages<{ id: string }>(api, list.path, list.wrapper, { limit: WALK_LIMIT }, true, byUrl);
      const followed = [...ids(first, list.wrapper), ...ids(byUrl, list.wrapper), ...rest.items.map((r: { id: string }) => r.id)];
      expect(followed.filter((id) => oldest.includes(id)), 'following nextPageUrl walks the oldest records in order').toEqual(oldest);
    });

    test('records are listed in creation order', { tag: ['@PAGE-027'] }, async ({ api }) => {
      const before = ids(await api.get(list.path), list.wrapper);
      const first = await list.create(api);
      const second = await list.create(api);
      const walked = (await walkCompatPages<{ id: string }>(api, list.path, list.wrapper, { limit: 200 })).items.map((r: { id: string }) => r.id);
      const at = (id: string) => walked.indexOf(id);
      expect(at(first), 'the first new record is listed').toBeGreaterThanOrEqual(0);
      expect(at(second), 'the second after the first').toBeGreaterThan(at(first));
      for (const id of before) if (at(id) >= 0) expect(at(id), `older record ${id} comes before the new ones`).toBeLessThan(at(first));
    });

    // One test per binding, so a service that ignores one binding fails only that requirement. The tests
    // share the worker's first-page cursor; each sends it once as issued before misusing it.
    type Binding = [tag: string, what: string, misuse: (c: { api: ApiClient; as: Roles }, cursor: string) => Promise<void>];
    const filters: Binding[] = list.filter ? [['@PAGE-018', 'filters', async ({ api }, cursor) => expectProblem(await api.get(list.path, { query: { ...list.filter, limit: 2, cursor } }), 400, 'validation_error')]] : [];
    const bindings: Binding[] = [
      ['@PAGE-017', 'endpoint', async ({ api }, cursor) => expectProblem(await api.get(list.other, { query: { limit: 2, cursor } }), 400, 'validation_error')],
      ['@PAGE-019', 'page size', async ({ api }, cursor) => {
        expectProblem(await api.get(list.path, { query: { limit: 3, cursor } }), 400, 'validation_error');
        expectProblem(await api.get(list.path, { query: { cursor } }), 400, 'validation_error');
      }],
      ...filters,
      ['@PAGE-021', 'organization', async ({ as }, cursor) => expectProblem(await as.otherOrg().get(list.path, { query: { limit: 2, cursor } }), 400, 'validation_error')],
    ];
    for (const [tag, what, misuse] of bindings) {
      test(`a cursor is bound to its ${what}`, { tag: [tag] }, async ({ api, as }) => {
        const { cursor } = await continuingCursor(key(api), firstPageCursor(api), (c) => api.get(list.path, { query: { ...FIRST_PAGE, cursor: c } }));
        await misuse({ api, as }, cursor);
      });
    }

    test('a cursor the service did not issue answers 400', { tag: ['@PAGE-022'] }, async ({ api }) => {
      const { cursor } = await issuedCursor(key(api), firstPageCursor(api));
      // As the native lists' test: never an issued cursor with a character changed or added (not tamper-evident);
      // each sent with the query the cursor was issued for.
      for (const bad of ['garbage', cutShort(cursor), 'eyJvZmZzZXQiOjEwMH0', Buffer.from('100').toString('base64')]) {
        expectProblem(await api.get(list.path, { query: { ...FIRST_PAGE, cursor: bad } }), 400, 'validation_error');
      }
    });
  });
}
