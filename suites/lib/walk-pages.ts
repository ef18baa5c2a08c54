/**
 * `walkPages`: follows a list to its end, native (`meta.pagination.cursor` while `has_more`) or
 * compatibility (`nextCursor` until null), asserting on the way what every page must satisfy.
 */
import { proves } from './proves.ts';
import { expect } from '@playwright/test';
import type { ApiClient, ApiResponse } from './client.ts';

export interface Walk<T> {
  items: T[];
  pages: ApiResponse[];
}

const MAX_PAGES = 2000;

/**
 * Walks a native list, passing `meta.pagination.cursor` while `has_more` is true. Every page has at most
 * `limit` items (default 20). Returns every item in the order received. Its assertions name the rule
 * each proves (suites/lib/proves.ts): page size PAGE-002, a string cursor while `has_more` PAGE-004, a
 * later page answered PAGE-005 plus `rules` (the walk's own, e.g. PAGE-006 for a desc walk).
 */
export async function walkPages<T = any>(client: ApiClient, path: string, query: Record<string, string | number | undefined> = {}, rules: readonly string[] = []): Promise<Walk<T>> {
  const items: T[] = [];
  const pages: ApiResponse[] = [];
  const limit = Number(query.limit ?? 20);
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = await client.get(path, { query: { ...query, cursor } });
    // A later page refused is the cursor not continuing the list (PAGE-005), plus the caller's `rules`.
    expect(page.status, proves(n === 0 ? rules : ['PAGE-005', ...rules], `${path} page ${n + 1}: ${page.text.slice(0, 200)}`)).toBe(200);
    pages.push(page);
    const data = page.body.data as T[];
    expect(data.length, proves(['PAGE-002'], `${path} page ${n + 1} holds at most limit=${limit} items`)).toBeLessThanOrEqual(limit);
    items.push(...data);
    const { has_more, cursor: next } = page.body.meta.pagination;
    if (!has_more) return { items, pages };
    expect(typeof next, proves(['PAGE-004'], `${path} page ${n + 1}: has_more is true, so cursor is a string`)).toBe('string');
    cursor = next;
  }
  throw new Error(`${path}: more than ${MAX_PAGES} pages`);
}

/**
 * The record with this id in a compatibility list (`wrapper` names its array, e.g. `workRequests`),
 * walking pages of 200 with `query` by `nextCursor` and stopping at the first hit; undefined when the
 * list ends without it. Every page must answer 200.
 */
export async function findInCompatList<T extends { id: string }>(client: ApiClient, path: string, wrapper: string, id: string, query: Record<string, string> = {}): Promise<T | undefined> {
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = await client.get(path, { query: { ...query, limit: 200, cursor } });
    expect(page.status, `${path}: ${page.text.slice(0, 200)}`).toBe(200);
    const hit = (page.body[wrapper] as T[]).find((r) => r.id === id);
    if (hit) return hit;
    if (page.body.nextCursor === null) return undefined;
    cursor = page.body.nextCursor;
  }
  return undefined;
}

/**
 * Walks a compatibility list (`wrapper` names the array, e.g. `workRequests`), by `nextCursor` or, with
 * `followUrls`, by `nextPageUrl`.
 */
export async function walkCompatPages<T = any>(client: ApiClient, path: string, wrapper: string, query: Record<string, string | number | undefined> = {}, followUrls = false): Promise<Walk<T>> {
  const items: T[] = [];
  const pages: ApiResponse[] = [];
  const limit = Number(query.limit ?? 100);
  let next: { cursor?: string; url?: string } = {};
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = next.url ? await client.get(next.url) : await client.get(path, { query: { ...query, cursor: next.cursor } });
    expect(page.status, `${path} page ${n + 1}: ${page.text.slice(0, 200)}`).toBe(200);
    pages.push(page);
    const data = page.body[wrapper] as T[];
    expect(Array.isArray(data), `${path} page ${n + 1} has a ${wrapper} array`).toBe(true);
    expect(data.length).toBeLessThanOrEqual(limit);
    items.push(...data);
    const { nextCursor, nextPageUrl } = page.body;
    if (nextCursor === null) {
      expect(nextPageUrl, `${path}: the final page sets nextPageUrl to null too`).toBeNull();
      return { items, pages };
    }
    expect(typeof nextCursor).toBe('string');
    expect(typeof nextPageUrl).toBe('string');
    next = followUrls ? { url: nextPageUrl } : { cursor: nextCursor };
  }
  throw new Error(`${path}: more than ${MAX_PAGES} pages`);
}

/**
 * An issued cursor cut to its first half (at least one character shorter): a cursor the service did not
 * issue under any encoding that carries its bindings (PAGE-022; description, Limits: "Cursors are opaque
 * and short-lived. They are bound to one endpoint, filter set, page size, direction and organization.").
 */
export function cutShort(cursor: string): string {
  return cursor.slice(0, Math.min(cursor.length - 1, Math.ceil(cursor.length / 2)));
}
