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
import { cutShort, walkCompatPages } from '../lib/walk-pages.ts';
import { uid, viaInferred } from '../lib/provision.ts';

interface CompatList {
  path: string;
  wrapper: string;
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
    create: async (api) => (await viaInferred('creating a work request', (c) => c.post('/workrequests', { json: { title: `CT page ${uid()}` } }), api)).body.workRequest.id,
  },
  {
    path: '/workrequestportals',
    wrapper: 'workRequestPortals',
    other: '/workrequests',
    create: async (api) => (await viaInferred('creating a request portal', (c) => c.post('/workrequestportals', { json: { title: `CT page ${uid()}` } }), api)).body.workRequestPortal.id,
  },
];

const ids = (page: { body: Record<string, any> }, wrapper: string): string[] => page.body[wrapper].map((r: { id: string }) => r.id);

for (const list of LISTS) {
  /** Makes sure the list holds more than `n` records, creating them when it has fewer. */
  const ensureMoreThan = async (api: ApiClient, n: number) => {
    const have = (await walkCompatPages(api, list.path, list.wrapper, { limit: 200 })).items.length;
    for (let i = have; i <= n; i++) await list.create(api);
  };

  test.describe(`compatibility list ${list.path}`, () => {
    test('without limit a page holds exactly 100 records when more exist', { tag: ['@PAGE-012'] }, async ({ api }) => {
      await ensureMoreThan(api, 100);
      const page = await api.get(list.path);
      expect(page.body[list.wrapper]).toHaveLength(100);
      expect(typeof page.body.nextCursor).toBe('string');
    });

    test('limit 1 to 200 bounds the page; below 1, above 200 or not an integer answers 400', { tag: ['@PAGE-013'] }, async ({ api }) => {
      await ensureMoreThan(api, 2);
      expect((await api.get(list.path, { query: { limit: 1 } })).body[list.wrapper]).toHaveLength(1);
      const max = await api.get(list.path, { query: { limit: 200 } });
      expect(max.status).toBe(200);
      expect(max.body[list.wrapper].length).toBeLessThanOrEqual(200);
      if (max.body.nextCursor !== null) expect(max.body[list.wrapper]).toHaveLength(200);
      for (const limit of ['0', '201', '-1', '1.5', 'ten', '']) {
        expectProblem(await api.get(list.path, { query: { limit } }), 400, 'validation_error');
      }
    });

    test('walking nextCursor returns every record once; only the final page nulls both links', { tag: ['@PAGE-014', '@PAGE-015'] }, async ({ api }) => {
      await ensureMoreThan(api, 100);
      const oldest = ids(await api.get(list.path), list.wrapper);
      const walk = await walkCompatPages(api, list.path, list.wrapper, { limit: 37 });
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
      await ensureMoreThan(api, 100);
      const first = await api.get(list.path, { query: { limit: 25 } });
      const byUrl = await api.get(first.body.nextPageUrl);
      const byCursor = await api.get(list.path, { query: { limit: 25, cursor: first.body.nextCursor } });
      expect(byUrl.status).toBe(200);
      expect(ids(byUrl, list.wrapper)).toEqual(ids(byCursor, list.wrapper));
      expect(ids(byUrl, list.wrapper)).toHaveLength(25);
      const oldest = ids(await api.get(list.path), list.wrapper);
      const walk = await walkCompatPages(api, list.path, list.wrapper, { limit: 25 }, true);
      expect(walk.items.map((r: { id: string }) => r.id).filter((id) => oldest.includes(id)), 'following nextPageUrl walks the oldest records in order').toEqual(oldest);
    });

    test('records are listed in creation order', { tag: ['@PAGE-027'] }, async ({ api }) => {
      const before = ids(await api.get(list.path), list.wrapper);
      const first = await list.create(api);
      const second = await list.create(api);
      const walked = (await walkCompatPages(api, list.path, list.wrapper, { limit: 200 })).items.map((r: { id: string }) => r.id);
      const at = (id: string) => walked.indexOf(id);
      expect(at(first), 'the first new record is listed').toBeGreaterThanOrEqual(0);
      expect(at(second), 'the second after the first').toBeGreaterThan(at(first));
      for (const id of before) if (at(id) >= 0) expect(at(id), `older record ${id} comes before the new ones`).toBeLessThan(at(first));
    });

    // One test per binding, so a service that ignores one binding fails only that requirement.
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
        await ensureMoreThan(api, 3);
        const cursor = (await api.get(list.path, { query: { limit: 2 } })).body.nextCursor as string;
        if (typeof cursor !== 'string') notAssessed('the first page of two records names no next cursor; walking is judged by the walk tests');
        const same = await api.get(list.path, { query: { limit: 2, cursor } });
        if (same.status !== 200) notAssessed(`the cursor does not continue its own request (${same.status}); continuing is judged by the walk tests`);
        await misuse({ api, as }, cursor);
      });
    }

    test('a cursor the service did not issue answers 400', { tag: ['@PAGE-022'] }, async ({ api }) => {
      await ensureMoreThan(api, 2);
      const cursor = (await api.get(list.path, { query: { limit: 1 } })).body.nextCursor as string;
      // As the native lists' test: never an issued cursor with a character changed or added (not tamper-evident).
      for (const bad of ['garbage', cutShort(cursor), 'eyJvZmZzZXQiOjEwMH0', Buffer.from('100').toString('base64')]) {
        expectProblem(await api.get(list.path, { query: { limit: 1, cursor: bad } }), 400, 'validation_error');
      }
    });
  });
}
