/** Sites with one level of sub-locations (Asset and location: one parent level, one sub-location level). */
import type { LocationRow } from '../store/types.ts';
import { AREAS, SITES } from './names.ts';
import { extraFieldsFor } from './custom-fields.ts';
import type { Seeder } from './context.ts';

export const seedLocations: Seeder = (ctx) => {
  const { org, world, random } = ctx;
  const add = (name: string, parentId: string | null) => {
    const id = world.ids.next('loc');
    const at = ctx.ago(random.int(200, 900));
    const row: LocationRow = {
      id,
      data: { id, name, parentId, extraFields: extraFieldsFor(org, 'locations', random), address: parentId ? null : `${random.int(1, 999)} Industrial Way`, created_at: at, updated_at: at },
    };
    org.locations.insert(row);
    return id;
  };
  for (const site of random.shuffle(SITES).slice(0, ctx.volume(4, 6, 2, 1))) {
    const siteId = add(site, null);
    for (const area of random.shuffle(AREAS).slice(0, ctx.volume(2, 4, 1, 1))) add(`${area}`, siteId);
  }
  if (ctx.role === 'main') ctx.fixture('locationId', org.locations.all()[0]!.id);
};
