/**
 * An organization's records of one kind, kept in id order with an index by id.
 *
 * Pages are found by binary search on the cursor's id, so the cost of a page does not depend on its
 * position in the list (docs/maintainers.md, "Benchmarks": page 1000 costs about what page 1 costs).
 * Optional secondary indexes (field-index.ts) keep the visible rows' ids by a field's values, so a
 * filtered page and its count read only the rows that can match (docs/integrators.md, "Large tenants").
 */
import { searchSorted } from './search-sorted.ts';
import { FieldIndex, mergedIds, type IndexKeys, type IndexUse } from './field-index.ts';

export interface Identified {
  readonly id: string;
}

export class Collection<R extends Identified> {
  private readonly rows: R[] = [];
  private readonly index = new Map<string, R>();
  private visible = 0;
  private changes = 0;
  private readonly indexes = new Map<string, FieldIndex<R>>();
  /** Told the id of every row written (insert, replace, remove): a state store's change tracker (Org.track); unset, it costs one check. */
  observer?: (id: string) => void;

  /**
   * @param isVisible whether a row is visible to public reads (soft-deleted rows are not).
   * @param indexes secondary indexes of the visible rows, by name: the values a row holds in a field.
   */
  constructor(private readonly isVisible: (row: R) => boolean = () => true, indexes: Record<string, IndexKeys<R>> = {}) {
    for (const [name, keysOf] of Object.entries(indexes)) this.indexes.set(name, new FieldIndex(keysOf));
  }

  /** Inserts a new row; ids normally arrive in increasing order (appended in O(1)). */
  insert(row: R): R {
    if (this.index.has(row.id)) throw new Error(`duplicate id ${row.id}`);
    const last = this.rows[this.rows.length - 1];
    if (!last || last.id < row.id) this.rows.push(row);
    else this.rows.splice(this.lowerBound(row.id), 0, row);
    this.index.set(row.id, row);
    if (this.isVisible(row)) this.visible++;
    this.reindex(undefined, row);
    this.changes++;
    this.observer?.(row.id);
    return row;
  }

  /** Replaces the row with the same id (rows are immutable values; writes replace them). */
  replace(row: R): R {
    const old = this.index.get(row.id);
    if (!old) throw new Error(`unknown id ${row.id}`);
    this.rows[this.lowerBound(row.id)] = row;
    this.index.set(row.id, row);
    this.visible += Number(this.isVisible(row)) - Number(this.isVisible(old));
    this.reindex(old, row);
    this.changes++;
    this.observer?.(row.id);
    return row;
  }

  /** Removes a row physically (for records the description lets disappear). */
  remove(id: string): void {
    const old = this.index.get(id);
    if (!old) return;
    this.rows.splice(this.lowerBound(id), 1);
    this.index.delete(id);
    if (this.isVisible(old)) this.visible--;
    this.reindex(old, undefined);
    this.changes++;
    this.observer?.(id);
  }

  /** The row with this id, visible or not. */
  getAny(id: string): R | undefined {
    return this.index.get(id);
  }

  /** The row with this id if it is visible to public reads. */
  get(id: string): R | undefined {
    const row = this.index.get(id);
    return row && this.isVisible(row) ? row : undefined;
  }

  /**
   * How many writes (insert, replace, remove) this collection has taken: a read derived from its rows
   * alone (a list page, paging/page-cache.ts) stays valid while this number stays the same.
   */
  get version(): number {
    return this.changes;
  }

  /** Number of visible rows, in O(1). */
  get visibleCount(): number {
    return this.visible;
  }

  /** Every visible row, in id order. */
  *values(): IterableIterator<R> {
    for (const row of this.rows) if (this.isVisible(row)) yield row;
  }

  /**
   * The visible rows holding `value` in index `name`, in id order; undefined when the collection has no
   * such index (the caller then scans `values()`).
   */
  holding(name: string, value: string): R[] | undefined {
    return this.indexes.get(name)?.ids(value).map((id) => this.index.get(id)!);
  }

  /** Every row, visible or not, in id order. */
  all(): readonly R[] {
    return this.rows;
  }

  /**
   * One page of visible rows matching `filter`, after `afterId` (exclusive) in `direction`.
   * Returns at most `limit` rows and whether more follow. With `using` (every row `filter` accepts
   * holds one of the values in one of those indexes) only the rows of the narrowest index are read.
   */
  page(opts: { afterId?: string; direction: 'asc' | 'desc'; limit: number; filter?: (row: R) => boolean; using?: readonly IndexUse[] }): { rows: R[]; hasMore: boolean } {
    const { afterId, direction, limit, filter } = opts;
    const lists = this.narrowest(opts.using);
    if (lists !== undefined) return this.indexedPage(lists, afterId, direction, limit, filter);
    const out: R[] = [];
    const step = direction === 'asc' ? 1 : -1;
    let i: number;
    if (afterId === undefined) i = direction === 'asc' ? 0 : this.rows.length - 1;
    else {
      const lb = this.lowerBound(afterId);
      const exact = this.rows[lb]?.id === afterId;
      i = direction === 'asc' ? (exact ? lb + 1 : lb) : lb - 1;
    }
    for (; i >= 0 && i < this.rows.length; i += step) {
      const row = this.rows[i]!;
      if (!this.isVisible(row) || (filter && !filter(row))) continue;
      if (out.length === limit) return { rows: out, hasMore: true };
      out.push(row);
    }
    return { rows: out, hasMore: false };
  }

  /**
   * Number of visible rows matching `filter` (O(1) without a filter). With `using` (as in `page`) only
   * the narrowest index's rows are read; with `exact` as well (`filter` accepts exactly the rows holding
   * one of the values of `using`'s only entry, and no row holds two of them) they are only counted.
   */
  count(filter?: (row: R) => boolean, using?: readonly IndexUse[], exact = false): number {
    if (!filter) return this.visible;
    const lists = this.narrowest(using);
    let n = 0;
    if (lists !== undefined && exact && using!.length === 1) {
      for (const ids of lists) n += ids.length;
      return n;
    }
    if (lists !== undefined) {
      for (const id of mergedIds(lists, undefined, 'asc')) if (filter(this.index.get(id)!)) n++;
      return n;
    }
    for (const row of this.rows) if (this.isVisible(row) && filter(row)) n++;
    return n;
  }

  /** Keeps the secondary indexes: `old` (if visible) leaves them, `row` (if visible) joins them. */
  private reindex(old: R | undefined, row: R | undefined): void {
    if (this.indexes.size === 0) return;
    const wasIn = old !== undefined && this.isVisible(old);
    const isIn = row !== undefined && this.isVisible(row);
    for (const index of this.indexes.values()) {
      if (wasIn && isIn && index.same(old, row)) continue;
      if (wasIn) index.delete(old);
      if (isIn) index.add(row);
    }
  }

  /** The id lists of the entry of `using` with the fewest ids; undefined when an index is missing. */
  private narrowest(using: readonly IndexUse[] | undefined): Array<readonly string[]> | undefined {
    let best: Array<readonly string[]> | undefined;
    let size = Infinity;
    for (const use of using ?? []) {
      const index = this.indexes.get(use.index);
      if (index === undefined) return undefined;
      const lists = use.values.map((v) => index.ids(v));
      const n = lists.reduce((sum, ids) => sum + ids.length, 0);
      if (n < size) [best, size] = [lists, n];
    }
    return best;
  }

  /** `page` over the ids of an index (visible rows only), the filter still applied. */
  private indexedPage(lists: Array<readonly string[]>, afterId: string | undefined, direction: 'asc' | 'desc', limit: number, filter?: (row: R) => boolean): { rows: R[]; hasMore: boolean } {
    const out: R[] = [];
    for (const id of mergedIds(lists, afterId, direction)) {
      const row = this.index.get(id)!;
      if (filter && !filter(row)) continue;
      if (out.length === limit) return { rows: out, hasMore: true };
      out.push(row);
    }
    return { rows: out, hasMore: false };
  }

  private lowerBound(id: string): number {
    return searchSorted(this.rows, id, compareId);
  }
}

/** Orders a row against an id (ids sort as strings in creation order, ids.ts). */
function compareId(row: Identified, id: string): number {
  return row.id < id ? -1 : row.id > id ? 1 : 0;
}
