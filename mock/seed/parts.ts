/**
 * Parts stocked at locations (Resources › Part; the stock behind the parts section), and asset–part
 * links. The main organization gets ~40 parts with unit costs (some unknown), one archived, stock at
 * several locations, and pairs of part and location kept for the suite: stocked with hundreds of units
 * and touched by no seeded section (profile fixture `stockedParts`, leased one test at a time). The
 * organizations of `moduleDisabled.parts_inventory` and `restrictedSettings` get one stocked part each
 * (fixtures `partsModuleDisabledStock`, `restrictedSettingsStock`); the second organization a few parts.
 */
import type { Org } from '../store/org.ts';
import type { PartRow } from '../store/types.ts';
import { recordMovements, stockKey } from '../domain/stock.ts';
import { MANUFACTURERS, PARTS } from './names.ts';
import { extraFieldsFor } from './custom-fields.ts';
import type { Seeder } from './context.ts';

const VARIANTS = ['large', 'small', 'heavy duty', 'spare', 'metric'];
/** Pairs kept for the suite in the main organization. */
const SUITE_PAIRS = 30;

const keptForSuite = new WeakMap<Org, ReadonlySet<string>>();

/** Stock keys (`${partId} ${locationId}`) the seed leaves to the suite: no seeded section may use them. */
export function stockKeptForSuite(org: Org): ReadonlySet<string> {
  return keptForSuite.get(org) ?? new Set();
}

export const seedParts: Seeder = (ctx) => {
  const { org, world, random } = ctx;
  const fixtureStock = ctx.role === 'moduleDisabled.parts_inventory' || ctx.role === 'restrictedSettings';
  const count = ctx.volume(38, 45, 6, fixtureStock ? 1 : 0);
  if (count === 0) return;
  const types = [world.ids.next('ptype'), world.ids.next('ptype'), world.ids.next('ptype')];
  for (let i = 0; i < count; i++) {
    const id = world.ids.next('prt');
    const at = ctx.ago(random.int(100, 700));
    const manufacturer = random.pick(MANUFACTURERS);
    const row: PartRow = {
      id,
      archived: false,
      unitCostMinor: random.chance(0.8) ? random.int(150, 25_000) : null,
      data: {
        id,
        name: i < PARTS.length ? PARTS[i]! : `${random.pick(PARTS)} (${random.pick(VARIANTS)})`,
        description: random.chance(0.5) ? `Stocked ${manufacturer} part.` : null,
        part_number: random.chance(0.9) ? `${manufacturer.slice(0, 3).toUpperCase()}-${random.int(1000, 9999)}` : null,
        manufacturer: random.chance(0.85) ? manufacturer : null,
        minimum_stock: random.chance(0.7) ? random.int(0, 20) : null,
        part_type_id: random.chance(0.8) ? random.pick(types) : null,
        image_url: random.chance(0.3) ? `https://img.mms.invalid/parts/${id}.jpg` : null,
        extraFields: extraFieldsFor(org, 'parts', random),
        created_at: at,
        updated_at: at,
      },
    };
    org.parts.insert(row);
  }
  const parts = org.parts.all();
  const locations = org.locations.all().map((l) => l.id);
  const stock = (partId: string, locationId: string, quantity: number) =>
    recordMovements(org, [{ at: ctx.ago(random.int(30, 90)), partId, locationId, delta: quantity, reason: 'seed' }]);

  if (fixtureStock) {
    const pair = { partId: parts[0]!.id, locationId: locations[0]! };
    stock(pair.partId, pair.locationId, 200);
    ctx.fixture(ctx.role === 'restrictedSettings' ? 'restrictedSettingsStock' : 'partsModuleDisabledStock', pair);
    return;
  }

  if (ctx.size === 'full') org.parts.replace({ ...parts[parts.length - 1]!, archived: true });
  const kept = new Set<string>();
  if (ctx.role === 'main') {
    const pairs = parts.slice(0, SUITE_PAIRS).map((p) => ({ partId: p.id, locationId: random.pick(locations) }));
    for (const p of pairs) {
      stock(p.partId, p.locationId, random.int(400, 600));
      kept.add(stockKey(p.partId, p.locationId));
    }
    keptForSuite.set(org, kept);
    ctx.fixture('stockedParts', pairs);
  }
  for (const part of org.parts.values()) {
    for (const locationId of random.shuffle(locations).slice(0, random.int(1, 3))) {
      if (!kept.has(stockKey(part.id, locationId))) stock(part.id, locationId, random.chance(0.15) ? 0 : random.int(1, 120));
    }
  }

  const assets = org.assets.all().filter((a) => !a.archived).map((a) => a.id);
  const visibleParts = [...org.parts.values()].map((p) => p.id);
  for (let n = ctx.volume(30, 40, 4); n > 0; n--) org.assetParts.add(`${random.pick(assets)} ${random.pick(visibleParts)}`);
};
