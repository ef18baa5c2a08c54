/**
 * Meters on assets and locations, with readings; some readings share a `reading_at` (the readings
 * cursor orders them by id). One meter is used by an automation and one is archived.
 */
import type { MeterRow, ReadingRow } from '../store/types.ts';
import { METERS } from './names.ts';
import type { Seeder } from './context.ts';

const UNITS: Record<string, [string, string, string]> = {
  'Run Hours': ['counter', 'hours', 'runtime'],
  Odometer: ['counter', 'km', 'distance'],
  'Discharge Pressure': ['gauge', 'bar', 'pressure'],
  'Oil Temperature': ['gauge', 'celsius', 'temperature'],
  'Flow Volume': ['counter', 'm3', 'volume'],
  'Energy Use': ['counter', 'kWh', 'electrical'],
  'Cycle Count': ['counter', 'cycles', 'other'],
  Vibration: ['gauge', 'mm/s', 'other'],
};

export const seedMeters: Seeder = (ctx) => {
  const { org, world, random } = ctx;
  if (ctx.size === 'fixtures' && ctx.role !== 'moduleDisabled.meters') return;
  const assets = org.assets.all().map((a) => a.id);
  const locations = org.locations.all().map((l) => l.id);
  const count = ctx.volume(38, 55, 6, 2);
  for (let i = 0; i < count; i++) {
    const name = random.pick(METERS);
    const [meter_type, unit, category] = UNITS[name]!;
    const onAsset = assets.length > 0 && (locations.length === 0 || random.chance(0.75));
    const id = world.ids.next('mtr');
    const at = ctx.ago(random.int(60, 400));
    const row: MeterRow = {
      id,
      usedByAutomation: false,
      data: {
        id, name: `${name} ${i + 1}`, description: random.chance(0.5) ? `${name} of ${onAsset ? 'the asset' : 'the area'}` : null,
        meter_type, unit, custom_unit: null, category,
        frequency: random.chance(0.5) ? 'daily' : null, frequency_interval: random.chance(0.5) ? random.int(1, 7) : null,
        asset_id: onAsset ? random.pick(assets) : null, location_id: onAsset ? null : random.pick(locations),
        current_value: null, current_reading_at: null,
        min_value: meter_type === 'gauge' ? 0 : null, max_value: meter_type === 'gauge' ? random.int(50, 400) : null,
        rollover_value: meter_type === 'counter' && random.chance(0.2) ? 999999 : null,
        image_url: null, is_active: true, created_at: at, updated_at: at,
      },
    };
    const readings: ReadingRow[] = [];
    let value = random.int(0, 500);
    let t = Date.parse(at);
    for (let r = ctx.size === 'full' ? random.int(0, 30) : random.int(0, 5); r > 0; r--) {
      if (!random.chance(0.15)) t += random.int(1, 72) * 3_600_000; // else: same reading_at as the previous one
      value += meter_type === 'counter' ? random.int(1, 40) : random.int(-20, 20);
      const rid = world.ids.next('rdg');
      readings.push({
        id: rid, at: t,
        data: { id: rid, meter_id: id, value, reading_at: new Date(t).toISOString(), source: random.pick(['manual', 'api', 'import']), notes: null, recorded_by_id: null, external_id: null, created_at: new Date(t).toISOString() },
      });
    }
    readings.sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
    const last = readings[readings.length - 1];
    if (last) Object.assign(row.data, { current_value: last.data.value, current_reading_at: last.data.reading_at });
    org.meters.insert(row);
    org.readings.set(id, readings);
  }
  const all = org.meters.all();
  if (ctx.role === 'main') {
    const used = all[1]!;
    org.meters.replace({ ...used, usedByAutomation: true });
    ctx.fixture('meterUsedByAutomation', used.id);
    const archived = all[all.length - 1]!;
    org.meters.replace({ ...archived, data: { ...archived.data, is_active: false } });
  }
  if (ctx.role === 'moduleDisabled.meters') ctx.fixture('meterInMetersDisabledOrg', all[0]!.id);
};
