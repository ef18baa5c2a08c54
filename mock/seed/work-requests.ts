/**
 * Work requests in every status (Work request: PENDING, REJECTED, APPROVED, DONE), some with assets,
 * locations, contact info, attachments (photos, scans, documents) and a thumbnail. Records the rejected
 * request and a pool of pending ones as profile fixtures. Approved and done requests are linked to work
 * orders by the work-order seeder.
 */
import type { Schemas, WorkRequestRow } from '../store/types.ts';
import type { World } from '../store/world.ts';
import { attachmentUrl } from '../handlers/work-requests.ts';
import { PROBLEMS } from './names.ts';
import { extraFieldsFor } from './custom-fields.ts';
import type { Random } from '../store/random.ts';
import type { Seeder } from './context.ts';

/** Kinds of uploaded files: media type, file name, pixel size (null for documents). */
const FILES: Array<[mimeType: string, fileName: string, size: [number, number] | null]> = [
  ['image/jpeg', 'photo.jpg', [1280, 960]],
  ['image/jpeg', 'leak-closeup.jpg', [1024, 768]],
  ['image/png', 'screenshot.png', [1920, 1080]],
  ['image/gif', 'gauge.gif', [320, 240]],
  ['application/pdf', 'inspection-report.pdf', null],
  ['text/plain', 'notes.txt', null],
];

/** A stored upload of request `requestId`: its metadata and its size in bytes. */
function seedAttachment(world: World, random: Random, requestId: string, at: string, kind: (typeof FILES)[number]): [Schemas['Attachment'], number] {
  const id = world.ids.next('att');
  const [mimeType, fileName, size] = kind;
  return [{ id, mimeType, fileName, url: attachmentUrl(requestId, id), createdAt: at, width: size?.[0] ?? null, height: size?.[1] ?? null }, random.int(2_000, 900_000)];
}

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
    const files = new Map<string, number>();
    const attachments: Array<Schemas['Attachment']> = [];
    for (let n = random.chance(0.35) ? random.int(1, 3) : 0; n > 0; n--) {
      const [attachment, bytes] = seedAttachment(world, random, id, at, random.pick(FILES));
      attachments.push(attachment);
      files.set(attachment.id, bytes);
    }
    let thumbnail: Schemas['Attachment'] | null = null;
    if (attachments.some((a) => a.width !== null) && random.chance(0.6)) {
      const [attachment, bytes] = seedAttachment(world, random, id, at, ['image/jpeg', 'thumbnail.jpg', [320, 240]]);
      thumbnail = attachment;
      files.set(attachment.id, bytes);
    }
    const row: WorkRequestRow = {
      id,
      files,
      data: {
        id,
        title: `${random.pick(PROBLEMS)} ${asset?.name ?? 'the site'}`,
        description: random.chance(0.7) ? 'Reported through the request portal.' : null,
        priority: random.pick(PRIORITIES),
        requestStatus: status,
        createdAt: at,
        updatedAt: at,
        attachments,
        thumbnail,
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
