/**
 * One factory per record kind that both a handler (POST) and a seeder create, so a created record and
 * a seeded one have the same shape and field order: expense entries (Resources › Work-order expense
 * entry), assets (Resources › Asset), request portals (Resources › Work request portal). Each takes
 * the record's field values and the id factory; it stores nothing.
 */
import type { IdFactory } from './ids.ts';
import type { AssetRow, ExpenseRow, PortalRow } from './types.ts';

type ExpenseData = ExpenseRow['data'];

/** An expense entry on work order `workOrderId`; `actorKeyId` (the recording API key) when known. */
export function newExpense(ids: IdFactory, workOrderId: string, f: Omit<ExpenseData, 'id' | 'work_order_id' | 'actor'> & { actorKeyId?: string }): ExpenseRow {
  const id = ids.next('exp');
  const data: ExpenseData = {
    id,
    work_order_id: workOrderId,
    user_id: f.user_id,
    type: f.type,
    amount_minor: f.amount_minor,
    currency: f.currency,
    description: f.description,
    ...(f.actorKeyId ? { actor: { type: 'api_key' as const, key_id: f.actorKeyId } } : {}),
    created_at: f.created_at,
  };
  return { id, workOrderId, data };
}

/** An active asset, its fields in the spec's order. */
export function newAsset(ids: IdFactory, f: Omit<AssetRow['data'], 'id'>): AssetRow {
  const id = ids.next('ast');
  return {
    id,
    archived: false,
    data: {
      id,
      name: f.name,
      status: f.status,
      criticality: f.criticality,
      asset_type: f.asset_type,
      asset_types: f.asset_types,
      parent_asset_id: f.parent_asset_id,
      location_id: f.location_id,
      description: f.description,
      extraFields: f.extraFields,
      created_at: f.created_at,
      updated_at: f.updated_at,
    },
  };
}

/** A request portal (id prefix `wrp`, its own: parts have `prt`). */
export function newPortal(ids: IdFactory, f: Omit<PortalRow['data'], 'id'>): PortalRow {
  const id = ids.next('wrp');
  return {
    id,
    data: {
      id,
      title: f.title,
      portalUrl: f.portalUrl,
      welcomeText: f.welcomeText,
      descriptionPlaceholder: f.descriptionPlaceholder,
      contactInformation: f.contactInformation,
      assetId: f.assetId,
      locationId: f.locationId,
      emailOnly: f.emailOnly,
      sendEmailNotification: f.sendEmailNotification,
    },
  };
}
