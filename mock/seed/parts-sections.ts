/**
 * Parts sections of seeded work orders, in every part status: active work orders cycle through
 * assigned, reserved, kitted, staged and issued (a commitment the stock cannot cover stays assigned, so
 * some rows read short or out of stock); completed ones were issued at completion; canceled and skipped
 * ones hold assigned rows. Rows use stocked parts other than the pairs kept for the suite, sometimes with
 * a unit-cost override, and prefer parts linked to the work order's asset.
 */
import { ProblemError } from '../http/problem.ts';
import { PART_STATUSES } from '../domain/parts-section.ts';
import { issuePendingParts, transition } from '../domain/parts-commands.ts';
import { isActive } from '../domain/work-order-state.ts';
import type { PartsLine, WorkOrderRow } from '../store/types.ts';
import { stockKey } from '../store/org.ts';
import { stockKeptForSuite } from './parts.ts';
import type { Seeder } from './context.ts';

export const seedPartsSections: Seeder = (ctx) => {
  const { org, world, random } = ctx;
  if (ctx.size === 'fixtures') return;
  const kept = stockKeptForSuite(org);
  const pairs = [...org.stock.keys()].filter((k) => !kept.has(k) && org.parts.get(k.split(' ')[0]!)).map((k) => k.split(' ') as [string, string]);
  if (pairs.length === 0) return;
  const workOrders = random.shuffle([...org.workOrders.values()]).slice(0, ctx.volume(40, 55, 5));
  const stocked = pairs.filter(([partId, locationId]) => (org.stock.get(stockKey(partId, locationId)) ?? 0) >= 20);
  let cycle = 0;
  for (const wo of workOrders) {
    const target = isActive(wo) ? PART_STATUSES[cycle++ % PART_STATUSES.length]! : 'assigned';
    const from = target === 'assigned' || stocked.length === 0 ? pairs : stocked;
    const assetId = wo.data.asset_id;
    const linked = from.filter(([partId]) => assetId && org.assetParts.has(`${assetId} ${partId}`));
    const choices = linked.length && random.chance(0.5) ? linked : from;
    const lines: PartsLine[] = [];
    for (let n = random.int(1, 3); n > 0; n--) {
      const [partId, locationId] = random.pick(choices);
      const override = ctx.role === 'main' && random.chance(0.1);
      lines.push({
        id: world.ids.next('wop'), partId, locationId, quantity: random.int(1, 6), quantityUsed: null,
        unitCostMinor: override ? random.int(100, 9_000) : org.parts.get(partId)!.unitCostMinor,
      });
    }
    const at = ctx.ago(random.int(0, 20) / 24);
    let row: WorkOrderRow = { ...wo, parts: { ...wo.parts, lines } };
    if (wo.data.status === 'done') row = issuePendingParts(org, row, at);
    else if (target !== 'assigned') {
      try {
        row = transition(org, row, target, at);
      } catch (e) {
        if (!(e instanceof ProblemError)) throw e;
      }
    }
    org.workOrders.replace(row);
  }
};
