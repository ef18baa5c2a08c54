/**
 * The mock's process-wide budget (docs/integrators.md, "Reliability"): how many records and
 * organizations the whole world may hold, whatever the control requests that add them (sandbox
 * organizations with sample data, bulk work orders, imported state). A control request that would go
 * past it changes nothing and gets 507 `insufficient_storage` problem details naming the budget and the
 * flag that raises it. API writes are bounded by the rate limits instead, not counted here.
 */
import { ProblemError } from '../http/problem.ts';
import type { World } from '../store/world.ts';

export interface MockBudget {
  /** Records of every kind in every organization (work orders, meters, readings, parts, movements, …). */
  records: number;
  /** Organizations, seeded and sandbox ones together. */
  organizations: number;
}

/** The defaults: 1,000,000 records (about 1.3 GB of heap at the work orders' size), 200 organizations. */
export const DEFAULT_BUDGET: MockBudget = { records: 1_000_000, organizations: 200 };

/** The records `world` holds, every kind and organization together. O(organizations × kinds). */
export function recordCount(world: World): number {
  let n = 0;
  for (const org of world.orgs.values()) {
    n += org.users.size + org.teams.size + org.meters.all().length + org.workOrders.all().length + org.expenses.all().length
      + org.workRequests.all().length + org.portals.all().length + org.assets.all().length + org.locations.all().length
      + org.parts.all().length + org.identifiers.all().length + org.movements.length + org.stock.size + org.assetParts.size;
    for (const rows of org.readings.values()) n += rows.length;
    for (const rows of Object.values(org.customFields)) n += rows.length;
  }
  return n;
}

/** Throws 507 problem details when `world` plus `adding` records, or its organizations, would pass `budget`. */
export function checkBudget(world: World, budget: MockBudget, adding: { records?: number; organizations?: number } = {}): void {
  const orgs = world.orgs.size + (adding.organizations ?? 0);
  if (orgs > budget.organizations) throw new ProblemError(507, 'insufficient_storage', `The mock would hold ${orgs} organizations, more than its budget of ${budget.organizations} (mock --max-organizations).`);
  const records = recordCount(world) + (adding.records ?? 0);
  if (records > budget.records) throw new ProblemError(507, 'insufficient_storage', `The mock would hold ${records} records, more than its budget of ${budget.records} (mock --max-records).`);
}
