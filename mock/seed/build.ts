/**
 * Builds the mock's world from fixtures/seed/organizations.yaml and a seed: the same seed always builds
 * the same world; another seed gives other ids, names, volumes and orderings (docs/maintainers.md,
 * "The self-test", the re-seeded run).
 */
import { loadScopes } from '../../contract/openapi.ts';
import { Clock } from '../store/clock.ts';
import { Org } from '../store/org.ts';
import { World } from '../store/world.ts';
import { loadOrganizations, type OrgFixture } from './fixtures-file.ts';
import { Random } from '../store/random.ts';
import type { SeedContext, SeedSize, Seeder } from './context.ts';
import { seedPeople } from './people.ts';
import { seedCustomFields } from './custom-fields.ts';
import { seedLocations } from './locations.ts';
import { seedAssets } from './assets.ts';
import { seedMeters } from './meters.ts';
import { seedParts } from './parts.ts';
import { seedWorkRequests } from './work-requests.ts';
import { seedWorkOrders } from './work-orders.ts';
import { seedPartsSections } from './parts-sections.ts';
import { seedExpenses } from './expenses.ts';
import { seedPortals } from './portals.ts';
import { seedIdentifiers } from './identifiers.ts';

/** The default seed of `npm run mock` and of fixtures/targets/mock.json. */
export const DEFAULT_SEED = 1;

/** Family seeders, in dependency order (definitions before the records that carry their values). */
export const SEEDERS: Seeder[] = [
  seedPeople, seedCustomFields, seedLocations, seedAssets, seedParts, seedMeters,
  seedWorkRequests, seedWorkOrders, seedPartsSections, seedExpenses, seedPortals, seedIdentifiers,
];

/** Builds a world. `clock` defaults to real time. */
export function buildWorld(seed = DEFAULT_SEED, clock = new Clock(), organizations: OrgFixture[] = loadOrganizations()): World {
  const world = new World(seed, clock);
  const allScopes = loadScopes();
  organizations.forEach((fixture, index) => {
    const org = world.addOrg(new Org(fixture.id, fixture.name, { ...fixture.modules }, structuredClone(fixture.settings)));
    for (const k of fixture.keys) {
      world.addKey(k.secret, {
        orgId: org.id,
        label: k.label,
        scopes: new Set(k.scopes === 'all' ? allScopes : k.scopes),
        revokedAt: k.revoked ? clock.now() - 86_400_000 : undefined,
        expiresAt: k.expired ? clock.now() - 3_600_000 : undefined,
      });
    }
    const random = new Random(seed * 7919 + index * 104729);
    seedOrg(world, org, { random, size: fixture.data, role: fixture.role, fixture: (name, value) => {
      world.fixtures[name] = value;
    } });
  });
  return world;
}

/**
 * Fills `org` of `world` with generated records: `size` sets the volumes, `role` the role-specific
 * records (organizations.yaml), `fixture` records fixture ids for the profile (sandbox organizations,
 * control/sandbox.ts, record none).
 */
export function seedOrg(world: World, org: Org, opts: { random: Random; size: SeedSize; role: string; fixture: (name: string, value: unknown) => void }): void {
  const { random, size, role, fixture } = opts;
  const clock = world.clock;
  const ctx: SeedContext = {
    world, org, random, size, role, fixture,
    ago: (days) => new Date(clock.now() - days * 86_400_000).toISOString(),
    volume: (min, max, small, fixtures) =>
      size === 'full' ? random.int(min, max)
      : size === 'small' ? small ?? Math.max(1, Math.round(min / 5))
      : fixtures ?? 1,
  };
  for (const seeder of SEEDERS) seeder(ctx);
}
