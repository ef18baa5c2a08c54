/**
 * Work requests in every status (Work request: PENDING, REJECTED, APPROVED, DONE), some with assets,
 * locations, contact info and attachments. Records the rejected request and a pool of pending ones as
 * profile fixtures. Approved and done requests are linked to work orders by the work-order seeder.
 */
import type { Schemas, WorkRequestRow } from '../store/types.ts';
import { PROBLEMS } from './names.ts';
import { extraFieldsFor } from './custom-fields.ts';
import type { Seeder } from './context.ts';

const PRIORITIES: Array<Schemas['CompatPriority']> = ['NONE', 'LOW', 'MEDIUM', 'HIGH'];

export const seedWorkRequests: Seeder = (ctx) => {
  const { org, world, random } = ctx;
  if (ctx.size === 'fixtures' && ctx.role !== 'moduleDisabled.requests') return;
  const assets = org.assets.all().map((a) => a.data);
  const count = ctx.volume(115, 140, 8, 2);
  for (let i = 0; i < count; i++) {
    const id = world.ids.next('wr');
    const at = ctx.ago(random.int(1, 300) + random.int(0, 23) / 24);
    const asset = assets.length && random.chance(0.6) ? random.pick(assets) : undefined;
    const status: Schemas['RequestStatus'] = i < 14 ? 'PENDING' : i === 14 ? 'REJECTED' : random.pick(['PENDING', 'PENDING', 'REJECTED', 'APPROVED', 'DONE']);
    const row: WorkRequestRow = {
      id,
      files: new Map(),
      data: {
        id,
        title: `${random.pick(PROBLEMS)} ${asset?.name ?? 'the site'}`,
        description: random.chance(0.7) ? 'Reported through the request portal.' : null,
        priority: random.pick(PRIORITIES),
        requestStatus: status,
        createdAt: at,
        updatedAt: at,
        attachments: [],
        thumbnail: null,
        assetId: asset?.id ?? null,
        locationId: asset?.location_id ?? null,
        workOrderId: null,
        approverTeamId: org.teams.size && random.chance(0.3) ? random.pick([...org.teams.keys()]) : null,
        sendEmailNotification: random.chance(0.5),
        extraFields: extraFieldsFor(org, 'workOrders', random),
        creatorContactInfo: random.chance(0.5) ? { type: 'PHONE', value: `+1 555 01${random.int(10, 99)}` } : null,
      },
    };
    org.workRequests.insert(row);
  }
  if (ctx.role === 'main') {
    const rows = org.workRequests.all();
    ctx.fixture('rejectedWorkRequestId', rows.find((r) => r.data.requestStatus === 'REJECTED')!.id);
    ctx.fixture('pendingWorkRequestIds', rows.filter((r) => r.data.requestStatus === 'PENDING').slice(0, 12).map((r) => r.id));
  }
};
