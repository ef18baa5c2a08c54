/**
 * Expense entries of work orders (Resources › Work-order expense entry; States and transitions ›
 * Expense entry): labor, travel and other costs on a good share of the work orders, some without a
 * description, a few retired, a few never recorded (no owner, no currency). The main organization has
 * one entry recorded under a previous currency (profile fixture `expenseUnderPreviousCurrency`); the
 * organization with cost tracking off has an active entry recorded before it was disabled
 * (`expenseInCostTrackingDisabledOrg`).
 */
import type { ExpenseRow, Schemas, WorkOrderRow } from '../store/types.ts';
import { isActive } from '../domain/work-order-state.ts';
import { newExpense } from '../store/records.ts';
import type { SeedContext, Seeder } from './context.ts';

type ExpenseType = Schemas['ExpenseType'];

const DESCRIPTIONS: Record<ExpenseType, string[]> = {
  labor: ['Contractor call-out', 'Weekend overtime', 'Specialist technician'],
  travel: ['Mileage to site', 'Parking and tolls', 'Ferry crossing'],
  other: ['Crane hire', 'Waste disposal fee', 'Scaffolding rental', 'Permit fee'],
};
const TYPES: ExpenseType[] = ['labor', 'travel', 'other'];
const HOUR = 3_600_000;

/** Adds one entry to `wo`, recorded some hours after the work order (never after now). */
function addEntry(ctx: SeedContext, wo: WorkOrderRow, overrides: Partial<ExpenseRow['data']> = {}, retired = false): ExpenseRow {
  const { org, world, random } = ctx;
  const users = [...org.users.values()].filter((u) => u.active).map((u) => u.id);
  const keyId = [...world.keysById.values()].find((k) => k.orgId === org.id)?.id;
  const type = random.pick(TYPES);
  const at = new Date(Math.min(world.clock.now(), Date.parse(wo.data.created_at!) + random.int(1, 72) * HOUR)).toISOString();
  const row = newExpense(world.ids, wo.id, {
    user_id: users.length ? random.pick(users) : null,
    type,
    amount_minor: random.int(5, 1200) * 100 + (random.chance(0.3) ? random.int(1, 99) : 0),
    currency: org.settings.currency,
    description: random.chance(0.25) ? null : random.pick(DESCRIPTIONS[type]),
    actorKeyId: keyId,
    created_at: at,
    ...overrides,
  });
  if (retired) row.retiredAt = new Date(Math.min(world.clock.now(), Date.parse(at) + 24 * HOUR)).toISOString();
  return org.expenses.insert(row);
}

/** A visible, active work order of the organization: an existing one, else the first one reopened. */
function activeWorkOrder(ctx: SeedContext): WorkOrderRow | undefined {
  const { org } = ctx;
  const active = org.workOrders.all().find(isActive);
  if (active) return active;
  const first = [...org.workOrders.values()][0];
  return first && org.workOrders.replace({ ...first, data: { ...first.data, status: 'open', completed_at: null } });
}

export const seedExpenses: Seeder = (ctx) => {
  const { org, random } = ctx;
  if (ctx.size === 'full' || ctx.size === 'small') {
    const share = ctx.size === 'full' ? 0.4 : 0.3;
    for (const wo of org.workOrders.all()) {
      if (!random.chance(share)) continue;
      for (let n = random.int(1, 3); n > 0; n--) {
        const neverRecorded = random.chance(0.05);
        addEntry(ctx, wo, neverRecorded ? { user_id: null, currency: null } : {}, random.chance(0.08));
      }
    }
  }
  if (ctx.role === 'main') {
    const wo = activeWorkOrder(ctx)!;
    const currency = org.settings.currency === 'EUR' ? 'USD' : 'EUR';
    const entry = addEntry(ctx, wo, { currency });
    ctx.fixture('expenseUnderPreviousCurrency', { workOrderId: wo.id, costId: entry.id, currency });
  }
  if (ctx.role === 'costTrackingDisabled') {
    const wo = activeWorkOrder(ctx)!;
    const userId = [...org.users.values()].find((u) => u.active)!.id;
    const entry = addEntry(ctx, wo, { user_id: userId });
    ctx.fixture('expenseInCostTrackingDisabledOrg', { workOrderId: wo.id, costId: entry.id, userId });
  }
};
