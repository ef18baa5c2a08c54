/**
 * What the operation-wide checks (operations-requests.spec.ts, operations-deletes.spec.ts; Endpoints;
 * States and transitions) share: reading the resources a response holds and a list's items, the read
 * operations, and the tags of a check whose operation may be inferred.
 */
import { expect } from '../fixtures.ts';
import { walkCompatPages, walkPages } from '../lib/walk-pages.ts';
import { operations } from '../lib/operations.ts';
import type { ApiClient } from '../lib/client.ts';

/** A JSON object as a response or a list item holds it. */
export type Resource = Record<string, unknown>;

/** Whether a JSON value is an object (not null, not an array). */
export const isObject = (v: unknown): v is Resource => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The resources a create answered: `{data}`, the resource itself, a one-resource wrapper or an array. */
export function resourcesIn(body: unknown): Resource[] {
  if (Array.isArray(body)) return body.filter(isObject);
  if (!isObject(body)) return [];
  if (isObject(body.data)) return [body.data];
  if (Array.isArray(body.data)) return body.data.filter(isObject);
  if ('id' in body) return [body];
  const wrapped = Object.values(body).filter((v): v is Resource => isObject(v) && 'id' in v);
  return wrapped.length === 1 ? wrapped : [];
}

/** Every item of a list: a native or compatibility list walked to its end, an `items` list, or a bare array. */
export async function listItems(client: ApiClient, path: string): Promise<Resource[]> {
  const first = await client.get<Resource | Resource[]>(path);
  expect(first.status, `GET ${path}: ${first.text.slice(0, 200)}`).toBe(200);
  const body = first.body;
  if (Array.isArray(body)) return body;
  if (isObject(body?.meta) && isObject((body.meta as Resource).pagination)) return (await walkPages<Resource>(client, path, { limit: 100 })).items;
  const wrapper = Object.keys(body ?? {}).find((k) => Array.isArray(body[k]));
  expect(wrapper, `GET ${path} answers a list`).toBeDefined();
  if ('nextCursor' in body) return (await walkCompatPages<Resource>(client, path, wrapper!, { limit: 200 })).items;
  return body[wrapper!] as Resource[];
}

/**
 * The item of a list with this id. Compatibility lists page by offset and concurrent changes can shift
 * later pages (Limits › Pagination), so a walk that misses the item is repeated, twice at most.
 */
export async function findListed(client: ApiClient, path: string, id: string): Promise<Resource | undefined> {
  for (let walk = 0; walk < 3; walk++) {
    const hit = (await listItems(client, path)).find((item) => String(item.id) === id);
    if (hit) return hit;
  }
  return undefined;
}

/** The GET operations of the spec: the reads and lists a create or a delete is observed through. */
export const GETS = operations.filter((o) => o.method === 'GET');
/** The path of the collection a `{...}/{id}` path names one resource of. */
export const parentPath = (path: string) => path.replace(/\/\{[^}]+\}$/, '');

/** The resource of a single read: `{data}`, a one-resource wrapper, or the body itself. */
export function unwrap(body: unknown): Resource | undefined {
  return resourcesIn(body)[0];
}

/** The tags of a check: its requirements' when the operation is stated, SPEC-005 when anything it rests on is inferred. */
export const tagFor = (mustTags: string[], inferred: boolean) => (inferred ? ['@SPEC-005'] : mustTags);
