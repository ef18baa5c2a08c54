/**
 * `described-only`: the mock serves exactly what the description shows and nothing it leaves open.
 * - Operations marked `x-inferred` (routes, methods or bodies not shown) answer 404 problem details
 *   once authenticated, with no side effect; the bodies "not shown" (custom-field create, meter create
 *   and update, reading create) answer 400 `validation_error`, since a vendor's shape may differ; work-order
 *   writes refuse members beyond `title`, `priority`, `workRequestId` and `extraFields`.
 * - Records carry only the fields the description lists (Resources and their fields).
 * - The second organization (the profile's `otherOrg`) starts with no records.
 * - The profile holds only what a vendor could provision: no control API, no expired key (the
 *   description gives keys no expiry a vendor could set).
 */
import { loadOperations } from '../../contract/openapi.ts';
import { Collection } from '../store/collection.ts';
import { ProblemError, problemBody } from '../http/problem.ts';
import { loadOrganizations } from '../seed/fixtures-file.ts';
import { editJson, wrapHandlers } from '../hooks/edit.ts';
import type { Handler } from '../http/context.ts';
import type { Alteration } from '../hooks/alteration.ts';

const INFERRED = new Set<string>(loadOperations().filter((o) => o.inferred).map((o) => o.operationId));
const UNSHOWN_BODY = ['createCustomFields', 'createMeter', 'updateMeter', 'createMeterReading'];
/** Stated members of work-order writes: the three named ones, and `extraFields` ("Entity writes accept `extraFields`"). */
const WORK_ORDER_MEMBERS = new Set(['title', 'priority', 'workRequestId', 'extraFields']);

const keep = (...names: string[]) => new Set(['id', ...names]);
/** Listed fields of each native record, by operation (Resources and their fields). */
const NATIVE: Array<[RegExp, Set<string>]> = [
  [/Meters?$/, keep('name', 'description', 'meter_type', 'unit', 'custom_unit', 'category', 'frequency', 'frequency_interval', 'asset_id', 'location_id', 'current_value', 'current_reading_at', 'min_value', 'max_value', 'rollover_value', 'image_url', 'is_active', 'created_at', 'updated_at')],
  [/MeterReadings?$/, keep('meter_id', 'value', 'reading_at', 'source', 'notes', 'recorded_by_id', 'external_id', 'created_at')],
  [/WorkOrders?$/, keep('title', 'priority', 'workRequestId', 'previous_id', 'next_id', 'extraFields')],
  [/Assets?$/, keep('status', 'criticality', 'asset_type', 'asset_types', 'parent_asset_id', 'sub_asset_count', 'name', 'extraFields')],
  [/Parts?$/, keep('name', 'description', 'part_number', 'manufacturer', 'minimum_stock', 'part_type_id', 'image_url', 'extraFields', 'created_at', 'updated_at')],
];
const CUSTOM_FIELD = keep('label', 'options', 'sortIndex', 'required', 'unlisted', 'includeInRecurrence');
const EXPENSE = keep('currency');

const only = (record: unknown, fields: Set<string>) => {
  if (typeof record !== 'object' || record === null) return record;
  for (const k of Object.keys(record)) if (!fields.has(k)) delete (record as Record<string, unknown>)[k];
  return record;
};

const refuseBody: Handler = () => { throw new ProblemError(400, 'validation_error', 'This body shape is not accepted.'); };

export const describedOnly: Alteration = {
  handlers: wrapHandlers(Object.fromEntries([
    ...[...INFERRED].map((id) => [id, () => (() => { throw new ProblemError(404, 'not_found', 'No such route.'); }) as Handler]),
    ...UNSHOWN_BODY.map((id) => [id, () => refuseBody]),
    ...['createWorkOrder', 'updateWorkOrder'].map((id) => [id, (original: Handler): Handler => (ctx) => {
      const extra = Object.keys((ctx.body ?? {}) as object).filter((k) => !WORK_ORDER_MEMBERS.has(k));
      if (extra.length) throw new ProblemError(400, 'validation_error', `Unknown members: ${extra.join(', ')}.`);
      return original(ctx);
    }]),
  ])),
  response: (out, request) => {
    const id = request.operationId;
    if (!id || out.status === 401) return out;
    if (INFERRED.has(id) && out.status !== 404) {
      // Refusals before the handler (400, 403, 405) too: a route that does not exist is 404.
      const rid = String(Object.entries(out.headers).find(([k]) => k.toLowerCase() === 'x-request-id')?.[1] ?? '');
      return { status: 404, headers: { 'X-Request-ID': rid, 'Content-Type': 'application/problem+json' }, body: problemBody(404, 'not_found', 'No such route.', rid) };
    }
    if (out.status >= 300) return out;
    if (/CustomFields?$/.test(id)) return editJson(out, (b) => { for (const d of [b].flat()) only(d, CUSTOM_FIELD); });
    if (/WorkOrderExpenses?$/.test(id)) return editJson(out, (b) => { for (const e of b.items ?? [b]) only(e, EXPENSE); });
    const fields = NATIVE.find(([re]) => re.test(id) && !/WorkOrderParts|Compat/.test(id))?.[1];
    if (!fields) return out;
    return editJson(out, (b) => { if (b && 'data' in b) for (const d of [b.data].flat()) only(d, fields); });
  },
  world: (w) => {
    const second = loadOrganizations().find((o) => o.keys.some((k) => k.role === 'otherOrg'))?.id;
    const org = second ? w.orgs.get(second) : undefined;
    if (!org) return;
    const o = org as unknown as Record<string, unknown>;
    for (const name of ['meters', 'workOrders', 'expenses', 'workRequests', 'portals', 'assets', 'locations', 'parts', 'identifiers']) o[name] = new Collection();
    org.readings.clear();
    org.assetParts.clear();
    org.identifierByValue.clear();
    org.stock.clear();
    for (const list of Object.values(org.customFields)) list.length = 0;
  },
  profile: (p) => {
    const { control: _control, ...rest } = p;
    const { expired: _expired, ...keys } = p.keys;
    return { ...rest, keys };
  },
};
