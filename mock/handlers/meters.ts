/**
 * Meters and readings (Endpoints › Meters (native); States and transitions › Meter).
 *
 * A meter attaches to exactly one asset or location of the organization; archiving keeps its readings
 * and is refused while an automation uses the meter. Readings are immutable and ordered by
 * `reading_at`, then id. Archived meters stay readable with `is_active` false (inferred).
 */
import type { Context, HandlerMapPart } from '../http/context.ts';
import { cachedJson } from '../http/json-cache.ts';
import { noContent, single } from '../http/envelope.ts';
import { nativePage, sortedPage } from '../paging/pages.ts';
import { CACHEABLE } from '../paging/page-cache.ts';
import { ProblemError, conflict, notFound } from '../http/problem.ts';
import { pathRecord } from './path-record.ts';
import { searchSorted } from '../store/search-sorted.ts';
import type { MeterRow, ReadingRow, Schemas } from '../store/types.ts';

type MeterBody = Schemas['MeterCreateRequest'] & Schemas['MeterUpdateRequest'];

function meterOf(ctx: Context): MeterRow {
  return pathRecord(ctx.org.meters, ctx, 'The meter');
}

/** Checks that the asset or location a meter attaches to belongs to the organization (else 404). */
function checkAttachment(ctx: Context, body: MeterBody): void {
  if (body.asset_id !== undefined && !ctx.org.assets.get(body.asset_id)) throw notFound(`Asset ${body.asset_id}`);
  if (body.location_id !== undefined && !ctx.org.locations.get(body.location_id)) throw notFound(`Location ${body.location_id}`);
}

const serialize = (row: MeterRow): string => cachedJson(row.data);
const serializeReading = (row: ReadingRow): string => cachedJson(row.data);

function compareReading(row: ReadingRow, p: [number, string]): number {
  return row.at - p[0] || (row.id < p[1] ? -1 : row.id > p[1] ? 1 : 0);
}

export const meterHandlers = {
  listMeters(ctx) {
    const { meter_type, category, asset_id, location_id } = ctx.params as Record<string, string | undefined>;
    const filtered = meter_type !== undefined || category !== undefined || asset_id !== undefined || location_id !== undefined;
    return nativePage(ctx, ctx.org.meters, serialize, filtered
      ? (m) => (meter_type === undefined || m.data.meter_type === meter_type)
          && (category === undefined || m.data.category === category)
          && (asset_id === undefined || m.data.asset_id === asset_id)
          && (location_id === undefined || m.data.location_id === location_id)
      : undefined, CACHEABLE);
  },

  createMeter(ctx) {
    const body = ctx.body as MeterBody;
    checkAttachment(ctx, body);
    const now = new Date(ctx.now).toISOString();
    const row: MeterRow = {
      id: ctx.world.ids.next('mtr'),
      usedByAutomation: false,
      data: {
        id: '',
        name: body.name!,
        description: body.description ?? null,
        meter_type: body.meter_type ?? 'counter',
        unit: body.unit ?? null,
        custom_unit: body.custom_unit ?? null,
        category: body.category ?? 'other',
        frequency: body.frequency ?? null,
        frequency_interval: body.frequency_interval ?? null,
        asset_id: body.asset_id ?? null,
        location_id: body.location_id ?? null,
        current_value: null,
        current_reading_at: null,
        min_value: body.min_value ?? null,
        max_value: body.max_value ?? null,
        rollover_value: body.rollover_value ?? null,
        image_url: body.image_url ?? null,
        is_active: true,
        created_at: now,
        updated_at: now,
      },
    };
    row.data.id = row.id;
    ctx.org.meters.insert(row);
    ctx.org.readings.set(row.id, []);
    return single(ctx, serialize(row), 201);
  },

  getMeter(ctx) {
    return single(ctx, serialize(meterOf(ctx)));
  },

  updateMeter(ctx) {
    const row = meterOf(ctx);
    const body = ctx.body as MeterBody;
    checkAttachment(ctx, body);
    const data = { ...row.data, ...body, updated_at: new Date(ctx.now).toISOString() };
    if (body.asset_id !== undefined) data.location_id = null;
    if (body.location_id !== undefined) data.asset_id = null;
    const next = ctx.org.meters.replace({ ...row, data });
    return single(ctx, serialize(next));
  },

  archiveMeter(ctx) {
    const row = meterOf(ctx);
    if (row.usedByAutomation) {
      throw conflict('The meter is used by an automation; remove it from the automation before archiving.', 'resource_in_use');
    }
    if (row.data.is_active) {
      ctx.org.meters.replace({ ...row, data: { ...row.data, is_active: false, updated_at: new Date(ctx.now).toISOString() } });
    }
    return noContent();
  },

  listMeterReadings(ctx) {
    const meter = meterOf(ctx);
    const rows = ctx.org.readings.get(meter.id) ?? [];
    return sortedPage(ctx, rows, (r) => [r.at, r.id] as [number, string], compareReading, serializeReading);
  },

  createMeterReading(ctx) {
    const meter = meterOf(ctx);
    if (!meter.data.is_active) throw conflict('The meter is archived; it records no new readings.');
    const body = ctx.body as Schemas['MeterReadingCreateRequest'];
    const at = body.reading_at !== undefined ? Date.parse(body.reading_at) : ctx.now;
    if (!Number.isFinite(at)) throw new ProblemError(400, 'validation_error', 'reading_at is not a date-time.');
    const id = ctx.world.ids.next('rdg');
    const row: ReadingRow = {
      id,
      at,
      data: {
        id,
        meter_id: meter.id,
        value: body.value,
        reading_at: new Date(at).toISOString(),
        source: body.source ?? 'api',
        notes: body.notes ?? null,
        recorded_by_id: ctx.key.id,
        external_id: body.external_id ?? null,
        created_at: new Date(ctx.now).toISOString(),
      },
    };
    insertReading(ctx, meter, row);
    return single(ctx, serializeReading(row), 201);
  },
} satisfies HandlerMapPart;

/** Inserts a reading in (`reading_at`, id) order; the latest reading becomes the meter's current value. */
export function insertReading(ctx: Pick<Context, 'org'>, meter: MeterRow, row: ReadingRow): void {
  const rows = ctx.org.readings.get(meter.id) ?? [];
  const lo = searchSorted(rows, [row.at, row.id], compareReading);
  rows.splice(lo, 0, row);
  ctx.org.readings.set(meter.id, rows);
  ctx.org.changed?.('reading', `${meter.id} ${row.id}`);
  if (lo === rows.length - 1) {
    ctx.org.meters.replace({ ...meter, data: { ...meter.data, current_value: row.data.value, current_reading_at: row.data.reading_at } });
  }
}
