/** Collections: id order, visibility, and pages found by binary search on the cursor id. */
import { test, expect } from '@playwright/test';
import { Collection } from '../store/collection.ts';

type Row = { id: string; hidden?: boolean; n: number };
const make = () => {
  const c = new Collection<Row>((r) => !r.hidden);
  for (let i = 0; i < 50; i++) c.insert({ id: `r${String(i).padStart(3, '0')}`, n: i });
  return c;
};

test('pages walk every visible row once, in both directions', () => {
  const c = make();
  c.replace({ id: 'r010', n: 10, hidden: true });
  for (const direction of ['asc', 'desc'] as const) {
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const { rows, hasMore } = c.page({ afterId: after, direction, limit: 7 });
      seen.push(...rows.map((r) => r.id));
      if (!hasMore) break;
      after = rows.at(-1)!.id;
    }
    expect(seen).toHaveLength(49);
    expect(seen).not.toContain('r010');
    expect(seen).toEqual([...seen].sort((a, b) => (direction === 'asc' ? a.localeCompare(b) : b.localeCompare(a))));
  }
  expect(c.visibleCount).toBe(49);
  expect(c.count((r) => r.n % 2 === 0)).toBe(24);
});

test('a cursor id that no longer exists still positions the page', () => {
  const c = make();
  c.remove('r020');
  expect(c.page({ afterId: 'r020', direction: 'asc', limit: 2 }).rows.map((r) => r.id)).toEqual(['r021', 'r022']);
  expect(c.page({ afterId: 'r020', direction: 'desc', limit: 2 }).rows.map((r) => r.id)).toEqual(['r019', 'r018']);
});

test('out-of-order inserts keep id order; duplicates are refused', () => {
  const c = new Collection<Row>();
  c.insert({ id: 'b', n: 1 });
  c.insert({ id: 'a', n: 0 });
  expect(c.all().map((r) => r.id)).toEqual(['a', 'b']);
  expect(() => c.insert({ id: 'a', n: 2 })).toThrow(/duplicate/);
});
