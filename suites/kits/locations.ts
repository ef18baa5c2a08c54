/**
 * The locations test kit (Resources › Asset and location): locations and sub-locations through the
 * inferred location routes. `test` adds it as the `locations` fixture to the base `test`
 * (compose with other kits through `mergeTests`).
 */
import { test as base, expect } from '../fixtures.ts';
import type { ApiClient } from '../lib/client.ts';
import { precondition, uid } from '../lib/provision.ts';
import type { Location, LocationEnvelope } from '../lib/api-types.ts';
import { arrange, expectApplied } from '../lib/arrange.ts';

/** A name unique within the run. */
export function locationName(): string {
  return `CT location ${uid()}`;
}

/**
 * Creates a location, arranged (the location routes are inferred): a 201 whose record shows the
 * `overrides` (`parentId` makes it a sub-location), else the test is not assessed. Returns its data.
 */
export function createLocation(client: ApiClient, overrides: Record<string, unknown> = {}): Promise<Location> {
  return arrange('create a location (POST /locations, inferred)', async () => {
    const response = precondition(await client.post<LocationEnvelope>('/locations', { json: { name: locationName(), ...overrides } }));
    expectApplied(response.body.data, overrides, 'POST /locations');
    return response.body.data;
  });
}

/** Reads a location's detail (asserting 200). */
export async function readLocation(client: ApiClient, id: string): Promise<Location> {
  const response = await client.get<LocationEnvelope>(`/locations/${id}`);
  expect(response.status, `GET /locations/${id}: ${response.text.slice(0, 300)}`).toBe(200);
  return response.body.data;
}

export interface LocationKit {
  create(overrides?: Record<string, unknown>): Promise<Location>;
  /** A top-level location with one sub-location. */
  family(): Promise<{ parent: Location; child: Location }>;
  read(id: string): Promise<Location>;
}

export const test = base.extend<{ locations: LocationKit }>({
  locations: async ({ api }, use) => {
    await use({
      create: (overrides) => createLocation(api, overrides),
      family: async () => {
        const parent = await createLocation(api);
        return { parent, child: await createLocation(api, { parentId: parent.id }) };
      },
      read: (id) => readLocation(api, id),
    });
  },
});

export { expect };
