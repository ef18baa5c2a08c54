/**
 * Benchmark support, not part of the API (docs/maintainers.md, "Benchmarks"; bench/README.md, parts
 * `walk` and `scale`), off with the rest of the control API (`--no-control`):
 * - `POST /__mock/bulk/work-orders {count, orgId?}` loads `count` work orders into an organization
 *   (default: the first of the fixtures, the main one). Each copies a visible seeded work order, round
 *   robin, under a fresh id and without links to other records, so its shape is whatever the work-order
 *   family seeds.
 * - `POST /__mock/bulk/readings {count, meterId?, orgId?}` backfills `count` readings of a meter (default:
 *   the organization's first active meter) one minute apart before its earliest reading, values copied
 *   from its readings round robin, so the meter's current value (its latest reading) stays as it is
 *   (Resources › Meter reading: readings are ordered by `reading_at`, then id).
 * Both count toward the mock's record budget (budget.ts, `--max-records`).
 */
import { emptyParts } from '../domain/parts-section.ts';
import { ProblemError } from '../http/problem.ts';
import type { Org } from '../store/org.ts';
import type { MeterRow, ReadingRow } from '../store/types.ts';
import type { World } from '../store/world.ts';

/**
 * The most records one bulk request may load (100,000 work orders: about 40 MB and 0.3 s), and the most
 * work orders or readings of one meter an organization may hold through bulk loads (2,000,000; the
 * record budget, `--max-records`, binds first unless raised).
 */
export const MAX_BULK_WORK_ORDERS = 100_000;
export const MAX_BULK_TOTAL = 2_000_000;

/** Appends `count` copies of the organization's visible work orders; returns the visible total. */
export function bulkWorkOrders(world: World, org: Org, count: number): number {
  const templates = org.workOrders.all().filter((w) => w.deletedAt === undefined);
  if (templates.length === 0) throw new ProblemError(409, 'conflict', `${org.id} has no work order to copy.`);
  for (let i = 0; i < count; i++) {
    const template = templates[i % templates.length]!;
    const id = world.ids.next('wo');
    org.workOrders.insert({
      ...template,
      id,
      parts: emptyParts(),
      data: { ...template.data, id, workRequestId: null, previous_id: null, next_id: null },
    });
  }
  return org.workOrders.visibleCount;
}

/** The meter `meterId` of `org` (default: its first active meter); 404 problem details when there is none. */
export function bulkMeter(org: Org, meterId: string | undefined): MeterRow {
  const meter = meterId === undefined ? [...org.meters.values()].find((m) => m.data.is_active) : org.meters.get(meterId);
  if (!meter) throw new ProblemError(404, 'not_found', meterId === undefined ? `${org.id} has no active meter.` : `${org.id} has no meter ${meterId}.`);
  return meter;
}

/**
 * Backfills `count` readings of `meter` one minute apart before its earliest reading (now, on the
 * world's clock, when it has none); returns how many readings the meter holds.
 */
export function bulkReadings(world: World, org: Org, meter: MeterRow, count: number): number {
  const rows = org.readings.get(meter.id) ?? [];
  const templates = rows.length > 0 ? rows.slice(0, 100) : undefined;
  const first = rows[0]?.at ?? world.clock.now();
  const older: ReadingRow[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const at = first - (count - i) * 60_000;
    const id = world.ids.next('rdg');
    const template = templates?.[i % templates.length]!.data;
    const stamp = new Date(at).toISOString();
    older[i] = {
      id,
      at,
      data: {
        id, meter_id: meter.id, value: template?.value ?? i, reading_at: stamp, source: template?.source ?? 'import',
        notes: null, recorded_by_id: null, external_id: null, created_at: stamp,
      },
    };
  }
  const all = older.concat(rows);
  org.readings.set(meter.id, all);
  return all.length;
}
