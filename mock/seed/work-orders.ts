/**
 * Work orders in every status, with types, priorities, assignments, labor and purchase costs,
 * recurrence chains (`previous_id`/`next_id`), and a few soft-deleted — one of them the middle of a
 * chain, so its neighbours read null links (profile fixture `workOrderWithUnavailableLink`). Approved
 * and done work requests get their linked work order.
 */
import type { Schemas, WorkOrderRow } from '../store/types.ts';
import { emptyParts } from '../domain/parts-section.ts';
import { EQUIPMENT, WORK } from './names.ts';
import { extraFieldsFor } from './custom-fields.ts';
import type { Seeder } from './context.ts';

const STATUSES: Array<Schemas['WorkOrderStatus']> = ['open', 'open', 'open', 'on_hold', 'in_progress', 'in_progress', 'done', 'done', 'canceled', 'skipped'];
const PRIORITIES = ['low', 'medium', 'medium', 'high', 'critical'];
const TYPES = ['reactive', 'preventive', 'preventive', 'other'];

export const seedWorkOrders: Seeder = (ctx) => {
  const { org, world, random } = ctx;
  const assets = org.assets.all().map((a) => a.data);
  const users = [...org.users.values()].filter((u) => u.active).map((u) => u.id);
  const teams = [...org.teams.keys()];
  const add = (title: string, overrides: Partial<WorkOrderRow['data']> = {}): WorkOrderRow => {
    const id = world.ids.next('wo');
    const at = ctx.ago(random.int(1, 365) + random.int(0, 23) / 24);
    const asset = assets.length && random.chance(0.7) ? random.pick(assets) : undefined;
    const status = random.pick(STATUSES);
    const row: WorkOrderRow = {
      id,
      parts: emptyParts(),
      labor: users.length && random.chance(0.5) ? [{ user_id: random.pick(users), rate_minor: random.int(30, 90) * 100, minutes: random.int(15, 480) }] : [],
      purchaseCostMinor: random.chance(0.3) ? random.int(1000, 90000) : 0,
      data: {
        id,
        title,
        description: random.chance(0.5) ? 'Follow the standard procedure.' : null,
        priority: random.pick(PRIORITIES),
        status,
        type: random.pick(TYPES),
        asset_id: asset?.id ?? null,
        location_id: asset?.location_id ?? null,
        assigned_to_user_ids: users.length && random.chance(0.6) ? [random.pick(users)] : [],
        assigned_to_team_ids: teams.length && random.chance(0.4) ? [random.pick(teams)] : [],
        due_at: random.chance(0.5) ? ctx.ago(-random.int(1, 30)) : null,
        completed_at: status === 'done' ? at : null,
        workRequestId: null,
        previous_id: null,
        next_id: null,
        extraFields: extraFieldsFor(org, 'workOrders', random),
        created_at: at,
        updated_at: at,
        ...overrides,
      },
    };
    return org.workOrders.insert(row);
  };
  const count = ctx.volume(230, 280, 12, ctx.role === 'costTrackingDisabled' || ctx.role === 'restrictedSettings' || ctx.role === 'moduleDisabled.parts_inventory' ? 2 : 0);
  for (let i = 0; i < count; i++) add(`${random.pick(WORK)} ${random.pick(EQUIPMENT).toLowerCase()}`);

  // Approved and done requests are linked to a work order.
  for (const request of org.workRequests.all()) {
    if (request.data.requestStatus !== 'APPROVED' && request.data.requestStatus !== 'DONE') continue;
    const wo = add(request.data.title, {
      workRequestId: request.id,
      status: request.data.requestStatus === 'DONE' ? 'done' : 'open',
      asset_id: request.data.assetId ?? null,
      location_id: request.data.locationId ?? null,
    });
    org.workRequests.replace({ ...request, data: { ...request.data, workOrderId: wo.id } });
  }

  if (ctx.size === 'full' || ctx.size === 'small') {
    // Recurrence chains; in the main organization one chain loses its middle work order.
    for (let c = 0; c < (ctx.size === 'full' ? 4 : 1); c++) {
      const title = `Monthly ${random.pick(WORK).toLowerCase()} of the ${random.pick(EQUIPMENT).toLowerCase()}`;
      const chain = [add(title, { type: 'preventive', status: 'done' }), add(title, { type: 'preventive', status: 'done' }), add(title, { type: 'preventive', status: 'open' })];
      const [a, b, z] = chain;
      org.workOrders.replace({ ...a!, data: { ...a!.data, next_id: b!.id } });
      org.workOrders.replace({ ...b!, data: { ...b!.data, previous_id: a!.id, next_id: z!.id } });
      org.workOrders.replace({ ...z!, data: { ...z!.data, previous_id: b!.id } });
      if (c === 0 && ctx.role === 'main') {
        const deletedAt = ctx.ago(2);
        const a2 = org.workOrders.getAny(a!.id)!;
        const z2 = org.workOrders.getAny(z!.id)!;
        org.workOrders.replace({ ...org.workOrders.getAny(b!.id)!, deletedAt });
        org.workOrders.replace({ ...a2, data: { ...a2.data, next_id: null } });
        org.workOrders.replace({ ...z2, data: { ...z2.data, previous_id: null } });
        ctx.fixture('workOrderWithUnavailableLink', z!.id);
      }
    }
    // A few soft-deleted work orders.
    for (const row of random.shuffle(org.workOrders.all().filter((w) => w.deletedAt === undefined && !w.data.previous_id && !w.data.next_id)).slice(0, 3)) {
      org.workOrders.replace({ ...row, deletedAt: ctx.ago(1) });
    }
  }
};
