/** Mutants of the self-test (docs/maintainers.md, "The self-test"): work requests and portals, custom fields and locations, identifiers and assets. */
import { editJson, editQuery, editReply, forOperations, withTemporary, wrapHandlers } from '../../hooks/edit.ts';
import { PNG } from '../helpers.ts';
import type { Mutant } from '../mutant.ts';

export const requestsMutants: Mutant[] = [
  // ── work requests and portals ──
  { name: 'expand-ignored', requirement: 'WR-004', description: 'expand is ignored on the work-request list.',
    mutation: { request: (_m, url) => (url.startsWith('/v1/workrequests?') ? editQuery(url, (q) => { const e = q.get('expand'); if (e) q.set('expand', e.split(',').filter((x) => x === 'extra_fields').join(',')); if (q.get('expand') === '') q.delete('expand'); }) : url) } },
  { name: 'bad-expand-accepted', requirement: 'WR-006', description: 'Unknown expand values are ignored.',
    mutation: { request: (_m, url) => (url.startsWith('/v1/workrequests?') ? editQuery(url, (q) => { const e = q.get('expand'); if (e !== null) { const ok = e.split(',').filter((x) => ['asset', 'location', 'work_order', 'extra_fields'].includes(x)); if (ok.length) q.set('expand', ok.join(',')); else q.delete('expand'); } }) : url) } },
  { name: 'upload-limit-2mib', requirement: 'WR-010', description: 'Uploads up to 2 MiB are stored.', mutation: { maxBodyBytes: 2 * 1024 * 1024 } },
  { name: 'thumbnail-any-media', requirement: 'WR-011', description: 'Any media is accepted as a thumbnail.',
    mutation: { handlers: wrapHandlers({ setWorkRequestThumbnail: (original) => (ctx) => original({ ...ctx, contentType: 'image/png', raw: PNG }) }) } },

  { name: 'portal-email-only-string', requirement: 'PORTAL-002', description: 'Portals carry emailOnly as a string.',
    mutation: { response: forOperations(['listWorkRequestPortals'], (out) => editJson(out, (b) => { for (const p of b.workRequestPortals ?? []) if ('emailOnly' in p) p.emailOnly = String(p.emailOnly); })) } },

  // ── custom fields and locations ──
  { name: 'custom-fields-unordered', requirement: 'CF-002', description: 'Definitions are listed newest first.',
    mutation: { response: forOperations(['listCustomFields'], (out) => editJson(out, (b) => b.reverse())) } },
  { name: 'custom-field-id-zero-accepted', requirement: 'CF-005', description: 'A custom-field id of 0 is read as an unknown id (404).',
    mutation: { request: (_m, url) => url.replace(/^(\/v1\/customfields\/[^/?]+\/)0(?=$|\?)/, '$12147483647') } },
  { name: 'archived-definition-listed', requirement: 'CF-008', description: 'Archived definitions stay in the list.',
    mutation: { handlers: wrapHandlers({ listCustomFields: (original) => (ctx) => editReply(original, ctx, (b) => { for (const d of ctx.org.customFields[ctx.params.entity as 'assets']) if (d.archivedAt) b.push(d.data); }) }) } },
  { name: 'location-third-level', requirement: 'LOC-003', description: 'A location can be placed under a sub-location.',
    mutation: { handlers: wrapHandlers({ createLocation: (original) => (ctx) => { const parentId = (ctx.body as { parentId?: string | null }).parentId; const parent = parentId ? ctx.org.locations.get(parentId) : undefined; if (!parent?.data.parentId) return original(ctx); return withTemporary(() => { ctx.org.locations.replace({ ...parent, data: { ...parent.data, parentId: null } }); return () => { ctx.org.locations.replace({ ...ctx.org.locations.get(parent.id)!, data: { ...ctx.org.locations.get(parent.id)!.data, parentId: parent.data.parentId } }); }; }, () => original(ctx)); } }) } },

  { name: 'work-order-detail-without-extra-fields', requirement: 'EXTRA-002', description: 'Work-order details omit extraFields.',
    mutation: { response: forOperations(['getWorkOrder'], (out) => editJson(out, (b) => { if (b.data) delete b.data.extraFields; })) } },
  { name: 'work-order-list-with-extra-fields', requirement: 'EXTRA-003', description: 'Work-order lists carry extraFields values.',
    mutation: { response: forOperations(['listWorkOrders'], (out) => editJson(out, (b) => { for (const w of b.data ?? []) w.extraFields = {}; })) } },
  { name: 'location-list-extra-fields-always', requirement: 'EXTRA-005', description: 'Location lists carry extraFields without expand=extra_fields.',
    mutation: { response: forOperations(['listLocations'], (out, req) => (/(^|&)expand=/.test(req.search) ? out : editJson(out, (b) => { for (const l of b.data ?? []) l.extraFields ??= {}; }))) } },
  { name: 'unlink-keeps-link', requirement: 'LINK-001', description: 'Unlinking a part from an asset answers 204 and keeps the link.',
    mutation: { handlers: wrapHandlers({ unlinkAssetPart: () => () => ({ status: 204 }) }) } },
  { name: 'part-minimum-stock-string', requirement: 'PART-001', description: 'Parts carry minimum_stock as a string.',
    mutation: { response: forOperations(['getPart', 'listParts', 'createPart'], (out) => editJson(out, (b) => { for (const p of [b.data].flat()) if (p && typeof p.minimum_stock === 'number') p.minimum_stock = String(p.minimum_stock); })) } },

  // ── identifiers and assets ──
  { name: 'identifier-resolves-case-insensitively', requirement: 'IDENT-005', description: 'Payloads resolve whatever their case.',
    mutation: { handlers: wrapHandlers({ resolveIdentifier: (original) => (ctx) => { const payload = String(ctx.params.payload); const hit = [...ctx.org.identifierByValue.keys()].find((v) => v.toLowerCase() === payload.trim().toLowerCase()); return original(hit ? { ...ctx, params: { ...ctx.params, payload: hit } } : ctx); } }) } },
  { name: 'sub-asset-count-off-by-one', requirement: 'ASSET-005', description: 'sub_asset_count counts one too many when there are sub-assets.',
    mutation: { response: forOperations(['listAssets', 'getAsset'], (out) => editJson(out, (b) => { for (const a of [b.data].flat()) if (a?.sub_asset_count > 0) a.sub_asset_count += 1; })) } },
];
