/**
 * An organization's records of one kind, kept in id order with an index by id.
 *
 * Pages are found by binary search on the cursor's id, so the cost of a page does not depend on its
 * position in the list (docs/maintainers.md, "Benchmarks": page 1000 costs about what page 1 costs).
 */
import { searchSorted } from './search-sorted.ts';

export interface Identified {
  readonly id: string;
}

export class Collection<R extends Identified> {
  private readonly rows: R[] = [];
  private readonly index = new Map<string, R>();
  private visible = 0;
  private changes = 0;
  /** Told the id of every row written (insert, replace, remove): a state store's change tracker (Org.track); unset, it costs one check. */
  observer?: (id: string) => void;

  /** @param isVisible whether a row is visible to public reads (soft-deleted rows are not). */
  constructor(private readonly isVisible: (row: R) => boolean = () => true) {}

  /** Inserts a new row; ids normally arrive in increasing order (appended in O(1)). */
  insert(row: R): R {
    if (this.index.has(row.id)) throw new Error(`duplicate id ${row.id}`);
    const last = this.rows[this.rows.length - 1];
    if (!last || last.id < row.id) this.rows.push(row);
    else this.rows.splice(this.lowerBound(row.id), 0, row);
    this.index.set(row.id, row);
    if (this.isVisible(row)) this.visible++;
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

  /** Every row, visible or not, in id order. */
  all(): readonly R[] {
    return this.rows;
  }

  /**
   * One page of visible rows matching `filter`, after `afterId` (exclusive) in `direction`.
   * Returns at most `limit` rows and whether more follow.
   */
  page(opts: { afterId?: string; direction: 'asc' | 'desc'; limit: number; filter?: (row: R) => boolean }): { rows: R[]; hasMore: boolean } {
    const { afterId, direction, limit, filter } = opts;
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

  /** Number of visible rows matching `filter` (O(1) without a filter). */
  count(filter?: (row: R) => boolean): number {
    if (!filter) return this.visible;
    let n = 0;
    for (const row of this.rows) if (this.isVisible(row) && filter(row)) n++;
    return n;
  }

  private lowerBound(id: string): number {
    return searchSorted(this.rows, id, compareId);
  }
}

/** Orders a row against an id (ids sort as strings in creation order, ids.ts). */
function compareId(row: Identified, id: string): number {
  return row.id < id ? -1 : row.id > id ? 1 : 0;
}
