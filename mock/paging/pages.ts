/**
 * The three paginations of the API (Limits › Pagination), over the signed cursors of cursor.ts:
 * - nativePage: ID cursor over a Collection (assets, locations, parts, meters, work orders, identifiers);
 * - sortedPage: opaque cursor over an array sorted by another key (meter readings: `reading_at`, id);
 * - compatPage: encoded offset cursor with `nextCursor`/`nextPageUrl` (work requests, portals).
 * Every cursor is bound to the endpoint, the filters (every parameter but limit, cursor and direction,
 * path parameters included), the page size, the direction and the organization.
 */
import type { Collection, Identified } from '../store/collection.ts';
import type { IndexUse } from '../store/field-index.ts';
import type { Context, Reply } from '../http/context.ts';
import { list, page } from '../http/envelope.ts';
import { pageBytes } from '../http/json-cache.ts';
import { cachedPage, type CachedPage } from './page-cache.ts';
import type { CursorBinding } from '../http/cursor.ts';
import { searchSorted } from '../store/search-sorted.ts';

const PAGING = new Set(['limit', 'cursor', 'direction']);

/** The filters part of a binding, by parameters object (never changed once read: pipeline/route.ts). */
const filtersByParams = new WeakMap<object, string>();

/** Every parameter but limit, cursor and direction, sorted by name: `name=<JSON>&…`. */
function filtersOf(params: Record<string, unknown>): string {
  let filters = filtersByParams.get(params);
  if (filters === undefined) {
    filters = Object.keys(params)
      .filter((k) => !PAGING.has(k))
      .sort()
      .map((k) => `${k}=${JSON.stringify(params[k])}`)
      .join('&');
    filtersByParams.set(params, filters);
  }
  return filters;
}

/** The cursor binding of a list request. */
export function bindingOf(ctx: Context, defaultLimit: number): CursorBinding {
  return {
    endpoint: ctx.op.operationId,
    org: ctx.org.id,
    filters: filtersOf(ctx.params),
    limit: (ctx.params.limit as number | undefined) ?? defaultLimit,
    direction: (ctx.params.direction as string | undefined) ?? 'asc',
  };
}

/**
 * A native list page over a Collection, by ID cursor. `serialize` returns a record's JSON. With
 * `cacheable` (the records' JSON depends on the row alone, the filter on the row and the request's
 * parameters alone) the page is remembered until the collection is written to (page-cache.ts). With
 * `using` and `exact`, the page and its `total_count` read the collection's indexes (Collection.page,
 * Collection.count).
 */
export function nativePage<R extends Identified>(
  ctx: Context,
  collection: Collection<R>,
  serialize: (row: R) => string,
  filter?: (row: R) => boolean,
  options: { cacheable?: boolean; using?: readonly IndexUse[]; exact?: boolean } = {},
): Reply {
  const binding = bindingOf(ctx, 20);
  const cursor = ctx.params.cursor as string | undefined;
  const afterId = cursor === undefined ? undefined : (ctx.cursors.open(cursor, binding) as string);
  const direction = binding.direction as 'asc' | 'desc';
  const page = options.cacheable
    ? cachedPage(collection, pageKey(ctx.params, binding, afterId), () => pageOf(collection, serialize, filter, afterId, direction, binding.limit, options))
    : pageOf(collection, serialize, filter, afterId, direction, binding.limit, options);
  return list(ctx, page.items, {
    hasMore: page.hasMore,
    cursor: page.lastId === undefined ? cursor ?? '' : options.cacheable ? cachedToken(ctx, binding, page) : ctx.cursors.issue(binding, page.lastId),
    totalCount: page.totalCount,
  });
}

/** The page-cache key of a first page (no cursor), by parameters object, with the endpoint it was built for. */
const firstPageKeys = new WeakMap<object, { endpoint: string; key: string }>();

/**
 * What selects a native page in the page cache (page-cache.ts): endpoint, filters, page size, direction
 * and the cursor's position. A first page's key is a function of the (frozen, per request line:
 * pipeline/route.ts) parameters and the endpoint alone, so it is built once per parameters object.
 */
function pageKey(params: object, binding: CursorBinding, afterId: string | undefined): string {
  if (afterId !== undefined) return builtPageKey(binding, afterId);
  const kept = firstPageKeys.get(params);
  if (kept !== undefined && kept.endpoint === binding.endpoint) return kept.key;
  const key = builtPageKey(binding, afterId);
  firstPageKeys.set(params, { endpoint: binding.endpoint, key });
  return key;
}

function builtPageKey(binding: CursorBinding, afterId: string | undefined): string {
  return `${binding.endpoint}\n${binding.filters}\n${binding.limit}\n${binding.direction}\n${typeof afterId}:${afterId}`;
}

/**
 * The cursor after a remembered page (page-cache.ts): the token issued for it last, while it would be
 * issued identically (same codec, organization and expiry second: a token is a function of these, the
 * binding and the last id, and the page key holds the rest of the binding); otherwise issued and kept.
 */
function cachedToken(ctx: Context, binding: CursorBinding, page: CachedPage): string {
  const codec = ctx.cursors;
  const expires = codec.expiresAt();
  const kept = page.token;
  if (kept !== undefined && kept.codec === codec && kept.org === binding.org && kept.expires === expires) return kept.value;
  const value = codec.issueExpiring(binding, page.lastId, expires);
  page.token = { codec, org: binding.org, expires, value };
  return value;
}

/** The page of `collection` after `afterId` (exclusive) in `direction`, as served. */
function pageOf<R extends Identified>(collection: Collection<R>, serialize: (row: R) => string, filter: ((row: R) => boolean) | undefined, afterId: string | undefined, direction: 'asc' | 'desc', limit: number, index: { using?: readonly IndexUse[]; exact?: boolean }): CachedPage {
  const { rows, hasMore } = collection.page({ afterId, direction, limit, filter, using: index.using });
  return { items: pageBytes(rows, rows.map(serialize)), lastId: rows[rows.length - 1]?.id, hasMore, totalCount: collection.count(filter, index.using, index.exact) };
}

/**
 * A native list page over `rows`, already sorted ascending by `compare`; the cursor holds the last
 * row's `position` and is bound to the direction it was made for.
 */
export function sortedPage<R extends object, P>(
  ctx: Context,
  rows: readonly R[],
  position: (row: R) => P,
  compareToPosition: (row: R, p: P) => number,
  serialize: (row: R) => string,
): Reply {
  const binding = bindingOf(ctx, 20);
  const cursor = ctx.params.cursor as string | undefined;
  const asc = binding.direction === 'asc';
  let i = asc ? 0 : rows.length - 1;
  if (cursor !== undefined) {
    const p = ctx.cursors.open(cursor, binding) as P;
    const lo = searchSorted(rows, p, compareToPosition, 'right'); // the first row after p
    if (asc) i = lo;
    else {
      i = lo - 1;
      while (i >= 0 && compareToPosition(rows[i]!, p) >= 0) i--;
    }
  }
  const out: R[] = [];
  for (; i >= 0 && i < rows.length && out.length < binding.limit; i += asc ? 1 : -1) out.push(rows[i]!);
  const hasMore = i >= 0 && i < rows.length;
  const last = out[out.length - 1];
  return list(ctx, pageBytes(out, out.map(serialize)), {
    hasMore,
    cursor: last !== undefined ? ctx.cursors.issue(binding, position(last)) : cursor ?? '',
    totalCount: rows.length,
  });
}

/**
 * A compatibility list page: `{[wrapper]: [...], nextCursor, nextPageUrl}` over `rows` (already filtered,
 * in list order), with an encoded-offset cursor. The final page sets both to null.
 */
export function compatPage<R extends object>(ctx: Context, wrapper: string, rows: readonly R[], serialize: (row: R) => string): Reply {
  const binding = bindingOf(ctx, 100);
  const cursor = ctx.params.cursor as string | undefined;
  const offset = cursor === undefined ? 0 : (ctx.cursors.open(cursor, binding) as number);
  const shown = rows.slice(offset, offset + binding.limit);
  const nextOffset = offset + shown.length;
  let nextCursor: string | null = null;
  let nextPageUrl: string | null = null;
  if (nextOffset < rows.length) {
    nextCursor = ctx.cursors.issue(binding, nextOffset);
    const query = new URLSearchParams();
    for (const [name, values] of Object.entries(ctx.query)) if (name !== 'cursor') for (const v of values) query.append(name, v);
    query.set('cursor', nextCursor);
    nextPageUrl = `${ctx.origin}/v1${ctx.op.path}?${query.toString()}`;
  }
  return page(
    `{${JSON.stringify(wrapper)}:[`,
    pageBytes(shown, shown.map(serialize)),
    `],"nextCursor":${JSON.stringify(nextCursor)},"nextPageUrl":${JSON.stringify(nextPageUrl)}}`,
  );
}
