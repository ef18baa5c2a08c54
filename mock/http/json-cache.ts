/**
 * JSON of immutable records, serialized once per record and view. Rows are replaced, never mutated
 * (store/types.ts), so a cached string can never go stale; a WeakMap lets replaced records go.
 */
const views = new Map<string, WeakMap<object, string>>();

/** The JSON of `record` in `view`, built by `build` (default: the record itself) on first use. */
export function cachedJson(record: object, view = 'full', build?: () => unknown): string {
  let cache = views.get(view);
  if (!cache) views.set(view, (cache = new WeakMap()));
  let json = cache.get(record);
  if (json === undefined) {
    json = JSON.stringify(build ? build() : record);
    cache.set(record, json);
  }
  return json;
}
