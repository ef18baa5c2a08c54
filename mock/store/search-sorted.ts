/**
 * The one binary search of the mock: records kept in order (collections by id, readings by time, list
 * pages by their cursor position) are found in O(log n), so a deep page costs what the first one does
 * (docs/maintainers.md, "Benchmarks").
 */

/**
 * The index at which `key` would be inserted into `rows` (sorted by `compare`, which compares a row to
 * the key): before the rows equal to it (`side` 'left', the default) or after them ('right').
 */
export function searchSorted<T, K>(rows: readonly T[], key: K, compare: (row: T, key: K) => number, side: 'left' | 'right' = 'left'): number {
  const right = side === 'right';
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compare(rows[mid]!, key);
    if (c < 0 || (right && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
