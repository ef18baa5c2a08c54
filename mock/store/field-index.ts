/**
 * A secondary index of a Collection (collection.ts): the ids of its visible rows by the values of one
 * field, each list in id order. A list filter of the description (Endpoints › Work orders (native):
 * `status`, `type`, `priority`, `asset_id`, …) then reads only the rows that can match, and counts its
 * `total_count` (Resources › Native envelope) without reading a million rows
 * (docs/integrators.md, "Large tenants"; bench/README.md, part `scale`).
 */
import { searchSorted } from './search-sorted.ts';

/** The values a row holds in an indexed field: none (null, absent), one, or several (an array field). */
export type IndexKeys<R> = (row: R) => string | readonly string[] | null | undefined;

/** Which rows a page or a count may be read from: the rows holding any of `values` in index `index`. */
export interface IndexUse {
  index: string;
  values: readonly string[];
}

const compareIds = (id: string, key: string): number => (id < key ? -1 : id > key ? 1 : 0);
const NONE: readonly string[] = Object.freeze([]);

/** The distinct keys of a row, as an array. */
function keysIn<R>(keysOf: IndexKeys<R>, row: R): readonly string[] {
  const k = keysOf(row);
  if (k === null || k === undefined) return NONE;
  if (typeof k === 'string') return [k];
  return k.length < 2 ? k : [...new Set(k)];
}

export class FieldIndex<R extends { readonly id: string }> {
  private readonly byValue = new Map<string, string[]>();

  constructor(private readonly keysOf: IndexKeys<R>) {}

  /** Adds a visible row (ids normally arrive in increasing order: appended in O(1)). */
  add(row: R): void {
    for (const key of keysIn(this.keysOf, row)) {
      const ids = this.byValue.get(key);
      if (ids === undefined) this.byValue.set(key, [row.id]);
      else if (ids[ids.length - 1]! < row.id) ids.push(row.id);
      else ids.splice(searchSorted(ids, row.id, compareIds), 0, row.id);
    }
  }

  /** Removes a row that was added. */
  delete(row: R): void {
    for (const key of keysIn(this.keysOf, row)) {
      const ids = this.byValue.get(key);
      if (ids === undefined) continue;
      const at = searchSorted(ids, row.id, compareIds);
      if (ids[at] === row.id) ids.splice(at, 1);
      if (ids.length === 0) this.byValue.delete(key);
    }
  }

  /** Whether two rows hold the same keys (a write that leaves the index as it is). */
  same(a: R, b: R): boolean {
    const x = this.keysOf(a);
    const y = this.keysOf(b);
    if (x === y) return true;
    if (typeof x === 'string' || typeof y === 'string' || x == null || y == null) return x === y || ((x == null || x.length === 0) && (y == null || y.length === 0));
    return x.length === y.length && x.every((v, i) => v === y[i]);
  }

  /** The ids of the visible rows holding `value`, in id order. */
  ids(value: string): readonly string[] {
    return this.byValue.get(value) ?? NONE;
  }
}

/**
 * The ids of `lists` (each in id order), merged, strictly after `afterId` in `direction` (from the
 * start without one): ascending or descending id order, each id once.
 */
export function* mergedIds(lists: ReadonlyArray<readonly string[]>, afterId: string | undefined, direction: 'asc' | 'desc'): Generator<string> {
  const asc = direction === 'asc';
  const at = lists.map((ids) => {
    if (afterId === undefined) return asc ? 0 : ids.length - 1;
    return asc ? searchSorted(ids, afterId, compareIds, 'right') : searchSorted(ids, afterId, compareIds) - 1;
  });
  let previous: string | undefined;
  for (;;) {
    let best = -1;
    for (let i = 0; i < lists.length; i++) {
      const id = lists[i]![at[i]!];
      if (id === undefined) continue;
      if (best < 0 || (asc ? id < lists[best]![at[best]!]! : id > lists[best]![at[best]!]!)) best = i;
    }
    if (best < 0) return;
    const id = lists[best]![at[best]!]!;
    at[best] = at[best]! + (asc ? 1 : -1);
    if (id !== previous) yield id;
    previous = id;
  }
}
