/**
 * `ignored-writes` (docs/freedoms.md): members of a write body that the description does not show are
 * accepted — the request is answered as usual, 2xx — and ignored: the record keeps what it had, or the
 * service's default. A service whose own field names differ from the suite's guesses behaves so.
 * - Native work-order create and update: only `title`, `priority`, `workRequestId` ("Bodies of work-order
 *   create and update, beyond `title`, `priority` and `workRequestId`: not shown") and `extraFields`
 *   ("Entity writes accept `extraFields`") apply; `status`, `type`, `asset_id`, `previous_id`, the
 *   assignees … do not ("Transitions of work-order status: not shown").
 * - Meter create and update ("Bodies of meter create and update: not shown"): only `asset_id` and
 *   `location_id` apply (the one create rule stated); a created meter is named `Meter`.
 * - Reading create ("Body of reading create: not shown"): only `value` applies; `reading_at` is the time
 *   of recording, `source`, `notes`, `external_id` stay empty.
 * - Custom-field create ("Body of the POST create request: not shown"): of each definition only the
 *   update fields apply (`label`, `options`, `sortIndex`, `required`, `unlisted`, `includeInRecurrence`).
 * - Asset, location and part writes (routes "not shown"): members the record's table does not list.
 */
import { wrapHandlers } from '../hooks/edit.ts';
import type { Handler } from '../http/context.ts';
import type { Alteration } from '../hooks/alteration.ts';

type Body = Record<string, unknown>;
const isObject = (b: unknown): b is Body => typeof b === 'object' && b !== null && !Array.isArray(b);

/** The body with only `kept` members, then `defaults` for members the handler needs. */
const only = (kept: string[], defaults: Body = {}) => (body: unknown): unknown =>
  (isObject(body) ? { ...defaults, ...Object.fromEntries(Object.entries(body).filter(([k]) => kept.includes(k))) } : body);

const WORK_ORDER = only(['title', 'priority', 'workRequestId', 'extraFields']);
const CUSTOM_FIELD = only(['label', 'options', 'sortIndex', 'required', 'unlisted', 'includeInRecurrence']);
/** Listed fields of assets, locations and parts (Resources and their fields), as a write may carry them. */
const ASSET = only(['name', 'status', 'criticality', 'asset_type', 'extraFields', 'location_id']);
const LOCATION = only(['name', 'parentId', 'extraFields']);
const PART = only(['name', 'description', 'part_number', 'manufacturer', 'minimum_stock', 'part_type_id', 'image_url', 'extraFields']);

const EDITS: Record<string, (body: unknown) => unknown> = {
  createWorkOrder: WORK_ORDER,
  updateWorkOrder: WORK_ORDER,
  createMeter: only(['asset_id', 'location_id'], { name: 'Meter' }),
  updateMeter: only(['asset_id', 'location_id']),
  createMeterReading: only(['value']),
  createCustomFields: (body) => (isObject(body) && Array.isArray(body.fields) ? { ...body, fields: body.fields.map(CUSTOM_FIELD) } : body),
  createAsset: ASSET,
  updateAsset: ASSET,
  createLocation: LOCATION,
  updateLocation: LOCATION,
  createPart: PART,
  updatePart: PART,
};

/** The handler run on the body as this variant reads it (validation already passed on the body sent). */
const ignoring = (edit: (body: unknown) => unknown) => (original: Handler): Handler => (ctx) => {
  ctx.body = edit(ctx.body);
  return original(ctx);
};

export const ignoredWrites: Alteration = {
  handlers: wrapHandlers(Object.fromEntries(Object.entries(EDITS).map(([id, edit]) => [id, ignoring(edit)]))),
};
