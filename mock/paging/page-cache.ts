/**
 * Native list pages remembered per collection (Limits › Pagination; docs/maintainers.md, "Benchmarks"):
 * the records' joined JSON bytes, the last row's id, `has_more` and `total_count` of one page, keyed by
 * what selects it (endpoint, filters, page size, direction, the cursor's position) and valid while the
 * collection's write counter (`Collection.version`) has not moved. Any insert, replace or remove (create,
 * update, soft delete, archive, bulk seeding, a mutant's world edit) moves it and drops the collection's
 * pages; a reset or a state store's catch-up builds new collections, which start with no pages.
 *
 * Only for pages whose records' JSON depends on the rows alone (the row's immutable `data`) and whose
 * filter reads only the row and the request's parameters: `nativePage` callers opt in with
 * `{ cacheable: true }`. Per-request parts (request id, cursor token) are never kept here.
 */
import type { Collection, Identified } from '../store/collection.ts';

/** One page as served: what the response needs besides the per-request parts. */
export interface CachedPage {
  /** The records' JSON, joined by commas, as UTF-8 (json-cache.ts `pageBytes`). */
  items: Buffer;
  /** The id of the page's last row (undefined for an empty page). */
  lastId: string | undefined;
  hasMore: boolean;
  totalCount: number;
  /**
   * The cursor token last issued for this page (pages.ts `nextCursor`): reused while the codec, the
   * organization and the expiry second are the same (the token is a function of them and the page key).
   */
  token?: { codec: object; org: string; expires: number; value: string };
}

/** The most pages kept per collection; past it the collection's pages are dropped (memory stays bounded). */
const PAGES_PER_COLLECTION = 64;

interface Pages {
  version: number;
  byKey: Map<string, CachedPage>;
}

const byCollection = new WeakMap<object, Pages>();

/** The cached page `key` of `collection`, or what `build` returns (then kept) when there is none for its current version. */
export function cachedPage<R extends Identified>(collection: Collection<R>, key: string, build: () => CachedPage): CachedPage {
  const version = collection.version;
  let pages = byCollection.get(collection);
  if (pages === undefined || pages.version !== version) {
    pages = { version, byKey: new Map() };
    byCollection.set(collection, pages);
  }
  let page = pages.byKey.get(key);
  if (page === undefined) {
    page = build();
    // Building reads the collection only; a build that wrote to it would have moved the version.
    if (collection.version !== version) return page;
    if (pages.byKey.size >= PAGES_PER_COLLECTION) pages.byKey.clear();
    pages.byKey.set(key, page);
  }
  return page;
}

/** `nativePage`'s options for a list whose records' JSON and filter read the row alone (see above). */
export const CACHEABLE = Object.freeze({ cacheable: true });
