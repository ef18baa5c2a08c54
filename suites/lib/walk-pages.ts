/**
 * `walkPages`: follows a list to its end, native (`meta.pagination.cursor` while `has_more`) or
 * compatibility (`nextCursor` until null), asserting on the way what every page must satisfy.
 */
import type { RequirementId } from '../../contract/catalog.ts';
import { proves } from './proves.ts';
import { expect } from '@playwright/test';
import type { ApiClient, ApiResponse } from './client.ts';
import { notAssessed } from './needs.ts';
import { WorkerMemo } from './worker-memo.ts';
import type { CursorPage, DataPage } from './api-types.ts';

/** A walk's records and the pages it read (`Page`: a page's body, DataPage or CursorPage). */
export interface Walk<T, Page = unknown> {
  items: T[];
  pages: ApiResponse<Page>[];
}

const MAX_PAGES = 2000;

/**
 * Walks a native list, passing `meta.pagination.cursor` while `has_more` is true. Every page has at most
 * `limit` items (default 20). Returns every item in the order received. Its assertions name the rule
 * each proves (suites/lib/proves.ts): page size PAGE-002, a string cursor while `has_more` PAGE-004, a
 * later page answered PAGE-005 plus `rules` (the walk's own, e.g. PAGE-006 for a desc walk).
 */
export async function walkPages<T = unknown>(client: ApiClient, path: string, query: Record<string, string | number | undefined> = {}, rules: readonly RequirementId[] = []): Promise<Walk<T, DataPage<T>>> {
  const items: T[] = [];
  const pages: ApiResponse<DataPage<T>>[] = [];
  const limit = Number(query.limit ?? 20);
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = await client.get<DataPage<T>>(path, { query: { ...query, cursor } });
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
    const page = await client.get<CursorPage<T>>(path, { query: { ...query, limit: 200, cursor } });
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
 * `followUrls`, by `nextPageUrl`. With `after` (a page of this list read with `query`), the walk starts
 * at the page that one links to and leaves `after` itself out (empty when `after` is the final page).
 */
export async function walkCompatPages<T = unknown>(client: ApiClient, path: string, wrapper: string, query: Record<string, string | number | undefined> = {}, followUrls = false, after?: ApiResponse<CursorPage>): Promise<Walk<T, CursorPage<T>>> {
  const items: T[] = [];
  const pages: ApiResponse<CursorPage<T>>[] = [];
  const limit = Number(query.limit ?? 100);
  const linkOf = (page: ApiResponse<CursorPage>) => (followUrls ? { url: page.body.nextPageUrl as string } : { cursor: page.body.nextCursor as string });
  if (after && after.body.nextCursor === null) return { items, pages };
  let next: { cursor?: string; url?: string } = after ? linkOf(after) : {};
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = next.url ? await client.get<CursorPage<T>>(next.url) : await client.get<CursorPage<T>>(path, { query: { ...query, cursor: next.cursor } });
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
    next = linkOf(page);
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

/** A cursor a list issued on a first page (shared by one worker's tests). */
export interface IssuedCursor {
  cursor: string;
}

/** Cursors issued per list and first-page query, in this worker (tests of a worker run one at a time). */
const issuedCursors = new WorkerMemo<IssuedCursor>();

/**
 * A cursor the target issued for the list `key` names (its path and first-page query), shared by the
 * tests of one worker so that each misuse test does not read the same first page again: the cached one,
 * or a fresh one from `issue` (which reads a first page, creating records first when it must, or skips
 * the test). Only resolved cursors are kept, so a test that is skipped or fails while issuing leaves
 * nothing behind. For tests that send cursors no encoding can read (PAGE-022), which need no control.
 */
export async function issuedCursor(key: string, issue: () => Promise<IssuedCursor>): Promise<IssuedCursor> {
  return issuedCursors.get(key, issue);
}

/**
 * As `issuedCursor`, for tests that then misuse the cursor (PAGE-017..021): `resume` sends the cursor in
 * its own request and must answer 200 first, so a refusal of the misuse is the binding's and not a cursor
 * refused for any cause. The description makes cursors "short-lived" without a lifetime (Limits ›
 * Pagination): a shared cursor that no longer continues is replaced once by a fresh one; when a fresh
 * cursor does not continue either, the test is not assessed (continuing is judged by the walk tests).
 */
export async function continuingCursor(key: string, issue: () => Promise<IssuedCursor>, resume: (cursor: string) => Promise<ApiResponse>): Promise<IssuedCursor> {
  const cached = await issuedCursors.peek(key)?.catch(() => undefined);
  if (cached && (await resume(cached.cursor)).status === 200) return cached;
  issuedCursors.forget(key);
  const fresh = await issuedCursors.get(key, issue);
  const same = await resume(fresh.cursor);
  if (same.status !== 200) {
    issuedCursors.forget(key);
    notAssessed(`the cursor does not continue its own request (${same.status}); continuing is judged by the walk tests`);
  }
  return fresh;
}
