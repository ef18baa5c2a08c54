/** Equipment with sub-assets (two levels below the top), at locations of the organization. */
import type { Schemas } from '../store/types.ts';
import { newAsset } from '../store/records.ts';
import { COMPONENTS, EQUIPMENT } from './names.ts';
import { extraFieldsFor } from './custom-fields.ts';
import type { Seeder } from './context.ts';

const STATUSES: Array<Schemas['AssetStatus']> = ['online', 'online', 'online', 'offline', 'not_monitored'];
const CRITICALITY: Array<Schemas['AssetCriticality']> = ['critical', 'important', 'normal', 'normal'];
const KINDS: Array<Schemas['AssetType']> = ['equipment', 'equipment', 'equipment', 'vehicle', 'facility'];

export const seedAssets: Seeder = (ctx) => {
  const { org, world, random } = ctx;
  const locations = org.locations.all().map((l) => l.id);
  const types = [{ id: world.ids.next('atype'), name: 'Rotating equipment' }, { id: world.ids.next('atype'), name: 'Pressure vessel' }, { id: world.ids.next('atype'), name: 'Mobile' }];
  const add = (name: string, parent: string | null, locationId: string | null) => {
    const at = ctx.ago(random.int(100, 800));
    const row = newAsset(world.ids, {
      name,
      status: random.pick(STATUSES),
      criticality: random.pick(CRITICALITY),
      asset_type: parent ? 'equipment' : random.pick(KINDS),
      asset_types: random.chance(0.5) ? [random.pick(types)] : [],
      parent_asset_id: parent,
      location_id: locationId,
      description: null,
      extraFields: extraFieldsFor(org, 'assets', random),
      created_at: at,
      updated_at: at,
    });
    org.assets.insert(row);
    return row.id;
  };
  const top = ctx.volume(30, 45, 6, 1);
  for (let i = 0; i < top; i++) {
    const loc = locations.length ? random.pick(locations) : null;
    const root = add(`${random.pick(EQUIPMENT)} ${String.fromCharCode(65 + (i % 26))}${random.int(1, 9)}`, null, loc);
    if (ctx.size !== 'fixtures' && random.chance(0.4)) {
      for (let c = random.int(1, 3); c > 0; c--) {
        const child = add(`${random.pick(COMPONENTS)} ${random.int(1, 99)}`, root, loc);
        if (random.chance(0.3)) add(`${random.pick(COMPONENTS)} ${random.int(100, 199)}`, child, loc);
      }
    }
  }
  if (ctx.size === 'full') {
    // An archived sub-asset: not an active descendant, so sub_asset_count does not count it.
    const parent = org.assets.all().find((a) => a.data.parent_asset_id === null)!;
    const id = add(`${random.pick(COMPONENTS)} (retired)`, parent.id, parent.data.location_id ?? null);
    org.assets.replace({ ...org.assets.getAny(id)!, archived: true });
  }
  if (ctx.role === 'main') ctx.fixture('assetId', org.assets.all()[0]!.id);
};
