/**
 * Request portals (Resources › Work request portal (compatibility); Endpoints › Other families).
 *
 * GET /workrequestportals pages portals in creation (id) order with the compatibility offset cursor.
 * Create, read, update and delete are inferred routes with the resource wrapper `{workRequestPortal}`;
 * the service generates `portalUrl`; a deleted portal is gone (404, absent from the list). A portal's
 * asset and location must belong to the organization (404).
 */
import { randomBytes } from 'node:crypto';
import type { Context, HandlerMapPart } from '../http/context.ts';
import { cachedJson } from '../http/json-cache.ts';
import { noContent, raw } from '../http/envelope.ts';
import { compatPage } from '../paging/pages.ts';
import { notFound } from '../http/problem.ts';
import { pathRecord } from './path-record.ts';
import { newPortal } from '../store/records.ts';
import type { PortalRow, Schemas } from '../store/types.ts';

/** The public address of a portal with this token (inferred host). */
export function portalUrl(token: string): string {
  return `https://requests.mms.invalid/p/${token}`;
}

function portalOf(ctx: Context): PortalRow {
  return pathRecord(ctx.org.portals, ctx, 'The portal');
}

function checkRelated(ctx: Context, body: { assetId?: string | null; locationId?: string | null }): void {
  if (body.assetId && !ctx.org.assets.get(body.assetId)) throw notFound(`Asset ${body.assetId}`);
  if (body.locationId && !ctx.org.locations.get(body.locationId)) throw notFound(`Location ${body.locationId}`);
}

const serialize = (row: PortalRow): string => cachedJson(row.data);
const wrapped = (row: PortalRow) => `{"workRequestPortal":${serialize(row)}}`;

export const portalHandlers = {
  listWorkRequestPortals(ctx) {
    return compatPage(ctx, 'workRequestPortals', [...ctx.org.portals.values()], serialize);
  },

  createWorkRequestPortal(ctx) {
    const body = ctx.body as Schemas['PortalCreateRequest'];
    checkRelated(ctx, body);
    const row = newPortal(ctx.world.ids, {
      title: body.title,
      portalUrl: portalUrl(randomBytes(9).toString('base64url')),
      welcomeText: body.welcomeText ?? null,
      descriptionPlaceholder: body.descriptionPlaceholder ?? null,
      contactInformation: body.contactInformation ?? null,
      assetId: body.assetId ?? null,
      locationId: body.locationId ?? null,
      emailOnly: body.emailOnly ?? false,
      sendEmailNotification: body.sendEmailNotification ?? false,
    });
    ctx.org.portals.insert(row);
    return raw(wrapped(row));
  },

  getWorkRequestPortal(ctx) {
    return raw(wrapped(portalOf(ctx)));
  },

  updateWorkRequestPortal(ctx) {
    const row = portalOf(ctx);
    const body = ctx.body as Schemas['PortalUpdateRequest'];
    checkRelated(ctx, body);
    return raw(wrapped(ctx.org.portals.replace({ ...row, data: { ...row.data, ...body } })));
  },

  deleteWorkRequestPortal(ctx) {
    ctx.org.portals.remove(portalOf(ctx).id);
    return noContent();
  },
} satisfies HandlerMapPart;
