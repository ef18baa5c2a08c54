/**
 * JSON of immutable records, serialized once per record and view. Rows are replaced, never mutated
 * (store/types.ts), so a cached string can never go stale; a WeakMap lets replaced records go. A view
 * keeps the JSON of at most MAX_RECORDS_PER_VIEW records (then starts afresh), so a walk over a million
 * records does not double their memory (docs/integrators.md, "Large tenants").
 * Recent list pages keep the UTF-8 bytes of their records, joined (`pageBytes`), reused while the
 * records serialize to the same JSON; the least recently used go past PAGE_CACHE_BYTES.
 */
const views = new Map<string, { cache: WeakMap<object, string>; size: number }>();

/** The most records whose JSON one view keeps (about 60 MB of work orders' list JSON). */
export const MAX_RECORDS_PER_VIEW = 100_000;

/** The most bytes of list pages kept. */
const PAGE_CACHE_BYTES = 32 * 1024 * 1024;
/** Page bytes by the page's first record, least recently used first. */
const pages = new Map<object, { json: readonly string[]; bytes: Buffer }>();
let pageCacheBytes = 0;
const NO_BYTES = Buffer.alloc(0);

/** The JSON of `record` in `view`, built by `build` (default: the record itself) on first use. */
export function cachedJson(record: object, view = 'full', build?: () => unknown): string {
  let kept = views.get(view);
  if (!kept) views.set(view, (kept = { cache: new WeakMap(), size: 0 }));
  let json = kept.cache.get(record);
  if (json === undefined) {
    json = JSON.stringify(build ? build() : record);
    if (++kept.size > MAX_RECORDS_PER_VIEW) [kept.cache, kept.size] = [new WeakMap(), 1];
    kept.cache.set(record, json);
  }
  return json;
}

/**
 * The records of a page, `json[i]` being the JSON of `records[i]`, joined by commas, as UTF-8 bytes.
 * The bytes are kept by the page's first record and reused while the page has the very same JSON
 * (compared string by string, so a serializer that computes fields on read stays correct).
 */
export function pageBytes(records: readonly object[], json: readonly string[]): Buffer {
  const first = records[0];
  if (first === undefined) return NO_BYTES;
  const hit = pages.get(first);
  if (hit !== undefined) {
    pages.delete(first);
    pageCacheBytes -= hit.bytes.length;
    if (sameStrings(hit.json, json)) {
      pages.set(first, hit);
      pageCacheBytes += hit.bytes.length;
      return hit.bytes;
    }
  }
  const bytes = Buffer.from(json.join(','));
  pages.set(first, { json, bytes });
  pageCacheBytes += bytes.length;
  for (const [record, page] of pages) {
    if (pageCacheBytes <= PAGE_CACHE_BYTES) break;
    pages.delete(record);
    pageCacheBytes -= page.bytes.length;
  }
  return bytes;
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
