/**
 * Finding a record of a kind in another organization (tenant isolation, docs/api-v1.md Authentication: "a
 * key belongs to one organization"): arranging (suites/lib/arrange.ts). The description promises no
 * record in any organization, so a list that does not answer 200 or holds none leaves the test not
 * assessed, naming what to provision.
 */
import { expect } from '@playwright/test';
import type { ApiClient } from './client.ts';
import { arrange } from './arrange.ts';
import { notAssessed } from './needs.ts';

/**
 * The first record of `path` (`/assets`; a compatibility list names its array in `wrapper`, e.g.
 * `workRequests`) that `client` — another organization's key — lists. Not assessed without one.
 */
export function foreignRecord(client: ApiClient, path: string, wrapper = 'data'): Promise<{ id: string } & Record<string, unknown>> {
  return arrange(`find a record of GET ${path} in the second organization (keys.otherOrg)`, async () => {
    const list = await client.get(path, { query: { limit: 1 } });
    expect(list.status, `GET ${path}: ${list.text.slice(0, 200)}`).toBe(200);
    const first = (list.body as Record<string, Array<{ id?: unknown }> | undefined> | undefined)?.[wrapper]?.[0];
    if (typeof first?.id !== 'string') notAssessed(`the second organization (keys.otherOrg) has no record in GET ${path}: provision one`);
    return first as { id: string } & Record<string, unknown>;
  });
}
