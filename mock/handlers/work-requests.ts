/**
 * Work requests, attachments and thumbnails (Resources › Work request (compatibility); Endpoints › Other
 * families; Limits: 1 MiB uploads; Errors: 413, 415).
 *
 * - GET /workrequests pages visible requests in creation (id) order with the compatibility offset
 *   cursor; `priority` and `requestStatus` filter (names inferred). `expand=asset,location,work_order`
 *   embeds the related record as a camelCase object (inferred shape), null when the request has no such
 *   link or the linked work order is unavailable; without expand those keys are absent. `extraFields` is
 *   listed only with `expand=extra_fields` (inferred).
 * - Writes (inferred routes): POST creates a PENDING request (200 `{workRequest}`), PATCH changes fields
 *   and may reject a PENDING request (else 409), DELETE soft-deletes (204; then 404). Related assets,
 *   locations and approver teams must belong to the organization (404). Custom-field values use the
 *   work-order definitions, which requests become.
 * - Uploads keep the bytes' size and metadata; width and height are measured from PNG, GIF and JPEG
 *   headers. A thumbnail must be a PNG, JPEG, GIF or WebP whose bytes match its type (else 415).
 */
import type { Context, HandlerMapPart } from '../http/context.ts';
import { cachedJson } from '../http/json-cache.ts';
import { json, noContent } from '../http/envelope.ts';
import { compatPage } from '../paging/pages.ts';
import { ProblemError, conflict, notFound } from '../http/problem.ts';
import { pathRecord } from './path-record.ts';
import { applyExtraFields } from '../domain/extra-fields.ts';
import type { Org } from '../store/org.ts';
import type { Schemas, WorkRequestRow } from '../store/types.ts';

type Attachment = Schemas['Attachment'];
type Expansion = 'asset' | 'location' | 'work_order' | 'extra_fields';

/** Where an attachment's metadata is read (the inferred GET route), relative to the API origin. */
export function attachmentUrl(requestId: string, attachmentId: string): string {
  return `/v1/workrequests/${requestId}/attachments/${attachmentId}`;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Whether the bytes carry the signature of each thumbnail media type (Errors: 415). */
const IMAGE_SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(PNG_SIGNATURE),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** Width and height from the header of a PNG, GIF or JPEG; null for other bytes. */
function measureImage(b: Buffer): { width: number; height: number } | null {
  if (IMAGE_SIGNATURES['image/png']!(b) && b.length >= 24 && b.subarray(12, 16).toString('latin1') === 'IHDR') {
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (IMAGE_SIGNATURES['image/gif']!(b) && b.length >= 10) return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (IMAGE_SIGNATURES['image/jpeg']!(b)) {
    // Walk the JPEG segments to the first start-of-frame marker (SOF0..SOF15 but DHT, JPG, DAC).
    for (let i = 2; i + 9 <= b.length && b[i] === 0xff; i += 2 + b.readUInt16BE(i + 2)) {
      const marker = b[i + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      }
    }
  }
  return null;
}

function requestOf(ctx: Context): WorkRequestRow {
  return pathRecord(ctx.org.workRequests, ctx, 'The work request');
}

/** Checks the related records a body names: 404 when one is unavailable to the organization. */
function checkRelated(org: Org, body: { assetId?: string | null; locationId?: string | null; approverTeamId?: string | null }): void {
  if (body.assetId && !org.assets.get(body.assetId)) throw notFound(`Asset ${body.assetId}`);
  if (body.locationId && !org.locations.get(body.locationId)) throw notFound(`Location ${body.locationId}`);
  if (body.approverTeamId && !org.teams.has(body.approverTeamId)) throw notFound(`Team ${body.approverTeamId}`);
}

const camel = (name: string): string => name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** A related native record as an embedded compatibility object: camelCase names, no `extraFields`. */
function camelView(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelView);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'extraFields') out[camel(k)] = camelView(v);
  return out;
}

/** The public record (a single-resource read: `extraFields` included). */
const detailJson = (row: WorkRequestRow): string => cachedJson(row.data);

/** The listed record without expansions: no `extraFields`. */
const listedJson = (row: WorkRequestRow): string =>
  cachedJson(row.data, 'work-request-list', () => {
    const { extraFields: _omitted, ...listed } = row.data;
    return listed;
  });

/** Serializes listed requests with the requested expansions. */
function listSerializer(org: Org, expand: ReadonlySet<Expansion>): (row: WorkRequestRow) => string {
  const related = expand.has('asset') || expand.has('location') || expand.has('work_order');
  if (!related) return expand.has('extra_fields') ? detailJson : listedJson;
  return (row) => {
    const { extraFields, ...listed } = row.data;
    const d = row.data;
    const out: Record<string, unknown> = expand.has('extra_fields') ? { ...listed, extraFields } : listed;
    if (expand.has('asset')) out.asset = d.assetId ? camelView(org.assets.getAny(d.assetId)?.data ?? null) : null;
    if (expand.has('location')) out.location = d.locationId ? camelView(org.locations.getAny(d.locationId)?.data ?? null) : null;
    if (expand.has('work_order')) out.workOrder = d.workOrderId ? camelView(org.workOrders.get(d.workOrderId)?.data ?? null) : null;
    return JSON.stringify(out);
  };
}

/** Replaces the request's row with new data (and files), stamping `updatedAt`. */
function save(ctx: Context, row: WorkRequestRow, data: Partial<Schemas['WorkRequest']>, files = row.files): WorkRequestRow {
  return ctx.org.workRequests.replace({ ...row, files, data: { ...row.data, ...data, updatedAt: new Date(ctx.now).toISOString() } });
}

/** A new attachment record for the uploaded bytes. */
function newAttachment(ctx: Context, row: WorkRequestRow, mimeType: string, bytes: Buffer): Attachment {
  const id = ctx.world.ids.next('att');
  const size = measureImage(bytes);
  return {
    id,
    mimeType,
    fileName: ctx.params.fileName as string,
    url: attachmentUrl(row.id, id),
    createdAt: new Date(ctx.now).toISOString(),
    width: size?.width ?? null,
    height: size?.height ?? null,
  };
}

export const workRequestHandlers = {
  listWorkRequests(ctx) {
    const { priority, requestStatus } = ctx.params as Record<string, string | undefined>;
    const expand = new Set((ctx.params.expand as Expansion[] | undefined) ?? []);
    const rows: WorkRequestRow[] = [];
    for (const row of ctx.org.workRequests.values()) {
      if ((priority === undefined || row.data.priority === priority) && (requestStatus === undefined || row.data.requestStatus === requestStatus)) rows.push(row);
    }
    return compatPage(ctx, 'workRequests', rows, listSerializer(ctx.org, expand));
  },

  createWorkRequest(ctx) {
    const body = ctx.body as Schemas['WorkRequestCreateRequest'];
    checkRelated(ctx.org, body);
    const now = new Date(ctx.now).toISOString();
    const id = ctx.world.ids.next('wr');
    const row: WorkRequestRow = {
      id,
      files: new Map(),
      data: {
        id,
        title: body.title,
        description: body.description ?? null,
        priority: body.priority ?? 'NONE',
        requestStatus: 'PENDING',
        createdAt: now,
        updatedAt: now,
        attachments: [],
        thumbnail: null,
        assetId: body.assetId ?? null,
        locationId: body.locationId ?? null,
        workOrderId: null,
        approverTeamId: body.approverTeamId ?? null,
        sendEmailNotification: body.sendEmailNotification ?? false,
        extraFields: applyExtraFields(ctx.org, 'workOrders', body.extraFields),
        creatorContactInfo: body.creatorContactInfo ?? null,
      },
    };
    ctx.org.workRequests.insert(row);
    return json({ workRequest: row.data });
  },

  updateWorkRequest(ctx) {
    const row = requestOf(ctx);
    const body = ctx.body as Schemas['WorkRequestUpdateRequest'];
    checkRelated(ctx.org, body);
    if (body.requestStatus === 'REJECTED' && row.data.requestStatus !== 'PENDING') {
      throw conflict(`Work request ${row.id} is ${row.data.requestStatus}; only a pending request can be rejected.`, 'invalid_work_request_state');
    }
    const extraFields = applyExtraFields(ctx.org, 'workOrders', body.extraFields, row.data.extraFields);
    return json({ workRequest: save(ctx, row, { ...body, extraFields }).data });
  },

  deleteWorkRequest(ctx) {
    const row = requestOf(ctx);
    ctx.org.workRequests.replace({ ...row, deletedAt: new Date(ctx.now).toISOString() });
    return noContent();
  },

  uploadWorkRequestAttachment(ctx) {
    const row = requestOf(ctx);
    const bytes = ctx.raw!;
    const attachment = newAttachment(ctx, row, ctx.contentType ?? 'application/octet-stream', bytes);
    save(ctx, row, { attachments: [...(row.data.attachments ?? []), attachment] }, new Map(row.files).set(attachment.id, bytes.length));
    return json({ attachment }, 201);
  },

  getWorkRequestAttachment(ctx) {
    const row = requestOf(ctx);
    const id = ctx.params.attachmentId as string;
    const attachment = row.data.attachments?.find((a) => a.id === id) ?? (row.data.thumbnail?.id === id ? row.data.thumbnail : undefined);
    if (!attachment) throw notFound('The attachment');
    return json({ attachment });
  },

  setWorkRequestThumbnail(ctx) {
    const row = requestOf(ctx);
    const bytes = ctx.raw!;
    const type = ctx.contentType ?? '';
    const matches = Object.hasOwn(IMAGE_SIGNATURES, type) ? IMAGE_SIGNATURES[type] : undefined;
    if (!matches) throw new ProblemError(415, 'unsupported_media_type', `A thumbnail is a PNG, JPEG, GIF or WebP image (got ${type || 'no Content-Type'}).`);
    if (!matches(bytes)) throw new ProblemError(415, 'unsupported_media_type', `The bytes are not a ${type} image.`);
    const attachment = newAttachment(ctx, row, type, bytes);
    save(ctx, row, { thumbnail: attachment }, new Map(row.files).set(attachment.id, bytes.length));
    return json({ attachment });
  },
} satisfies HandlerMapPart;
