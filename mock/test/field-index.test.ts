/**
 * Secondary indexes of a Collection (mock/store/field-index.ts): after any sequence of inserts (in and
 * out of id order), replaces that move a row between values or hide it, and removes, an indexed page
 * and an indexed count equal the same page and count found by scanning every row, in both directions,
 * from every cursor position; for one value, for several (a union such as the filter `todo`), on a
 * one-valued field and on an array field, and with a second criterion beside the index.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { Collection } from '../store/collection.ts';
import type { IndexUse } from '../store/field-index.ts';

type Row = { id: string; status: string | null; tags: string[]; hidden: boolean; n: number };
const STATUSES = ['open', 'done', 'on_hold'];
const TAGS = ['a', 'b', 'c'];

const make = () => new Collection<Row>((r) => !r.hidden, { status: (r) => r.status, tags: (r) => r.tags });

const op = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), id: fc.integer({ min: 0, max: 60 }), status: fc.constantFrom(null, ...STATUSES), tags: fc.subarray([...TAGS, 'a']), hidden: fc.boolean(), n: fc.nat(9) }),
  fc.record({ kind: fc.constant('replace' as const), id: fc.integer({ min: 0, max: 60 }), status: fc.constantFrom(null, ...STATUSES), tags: fc.subarray(TAGS), hidden: fc.boolean(), n: fc.nat(9) }),
  fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 60 }) }),
);

/** Every page of `using` + `filter` in `direction`, `limit` rows a page, the cursor being the last id. */
function walk(c: Collection<Row>, direction: 'asc' | 'desc', limit: number, filter: (r: Row) => boolean, using?: IndexUse[]): string[][] {
  const pages: string[][] = [];
  let after: string | undefined;
  for (;;) {
    const { rows, hasMore } = c.page({ afterId: after, direction, limit, filter, using });
    pages.push(rows.map((r) => r.id));
    if (!hasMore || rows.length === 0) return pages;
    after = rows.at(-1)!.id;
  }
}

test('indexed pages and counts equal scanned ones after any writes', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 120 }), fc.constantFrom(1, 2, 5), fc.constantFrom('asc' as const, 'desc' as const), (ops, limit, direction) => {
      const c = make();
      for (const o of ops) {
        const id = `r${String(o.id).padStart(3, '0')}`;
        if (o.kind === 'remove') c.remove(id);
        else if (o.kind === 'insert') {
          if (!c.getAny(id)) c.insert({ id, status: o.status, tags: o.tags, hidden: o.hidden, n: o.n });
        } else if (c.getAny(id)) c.replace({ id, status: o.status, tags: o.tags, hidden: o.hidden, n: o.n });
      }
      const cases: Array<{ filter: (r: Row) => boolean; using: IndexUse[]; exact: boolean }> = [
        { filter: (r) => r.status === 'done', using: [{ index: 'status', values: ['done'] }], exact: true },
        { filter: (r) => r.status === 'open' || r.status === 'on_hold', using: [{ index: 'status', values: ['open', 'on_hold'] }], exact: true },
        { filter: (r) => r.tags.includes('a'), using: [{ index: 'tags', values: ['a'] }], exact: true },
        { filter: (r) => r.tags.includes('b') && r.status === 'open', using: [{ index: 'tags', values: ['b'] }, { index: 'status', values: ['open'] }], exact: false },
        { filter: (r) => r.status === 'done' && r.n > 4, using: [{ index: 'status', values: ['done'] }], exact: false },
        { filter: (r) => r.status === 'gone', using: [{ index: 'status', values: ['gone'] }], exact: true },
      ];
      for (const k of cases) {
        expect(walk(c, direction, limit, k.filter, k.using)).toEqual(walk(c, direction, limit, k.filter));
        expect(c.count(k.filter, k.using, k.exact)).toBe(c.count(k.filter));
      }
    }),
    { seed: 20240917, numRuns: 150 },
  );
});

test('an index a collection does not have falls back to scanning', () => {
  const c = new Collection<Row>((r) => !r.hidden);
  for (let i = 0; i < 9; i++) c.insert({ id: `r${i}`, status: STATUSES[i % 3]!, tags: [], hidden: false, n: i });
  const using = [{ index: 'status', values: ['done'] }];
  expect(c.page({ direction: 'asc', limit: 10, filter: (r) => r.status === 'done', using }).rows.map((r) => r.id)).toEqual(['r1', 'r4', 'r7']);
  expect(c.count((r) => r.status === 'done', using, true)).toBe(3);
});

test('a write that keeps a row\'s indexed values leaves its place; one that changes them moves it', () => {
  const c = make();
  for (let i = 0; i < 5; i++) c.insert({ id: `r${i}`, status: 'open', tags: ['a'], hidden: false, n: i });
  c.replace({ id: 'r2', status: 'open', tags: ['a'], hidden: false, n: 99 });
  c.replace({ id: 'r3', status: 'done', tags: ['a'], hidden: false, n: 3 });
  c.replace({ id: 'r4', status: 'open', tags: ['a'], hidden: true, n: 4 });
  const open = [{ index: 'status', values: ['open'] }];
  expect(c.page({ direction: 'asc', limit: 10, filter: (r) => r.status === 'open', using: open }).rows.map((r) => [r.id, r.n])).toEqual([['r0', 0], ['r1', 1], ['r2', 99]]);
  expect(c.count((r) => r.status === 'open', open, true)).toBe(3);
  expect(c.count((r) => r.status === 'done', [{ index: 'status', values: ['done'] }], true)).toBe(1);
});
