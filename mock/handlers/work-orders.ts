/**
 * Native work orders and the compatibility `/workorders` adapter (Resources › Work order (native);
 * Endpoints › Work orders (native); States and transitions: work-request approval, soft delete).
 *
 * - Lists filter by status (`todo` = open, on_hold, in_progress), type, priority, asset, location, user
 *   and team (read through the collection's indexes, store/org.ts), and omit `extraFields` and `costs`;
 *   the detail has both (reads are not cost-redacted).
 * - Creating with `workRequestId` approves a pending request and links both at once; a repeat returns the
 *   linked work order (200); a rejected request answers 409 `invalid_work_request_state`.
 * - DELETE soft-deletes: the work order leaves every read, keeps its data, a repeat answers 204 and keeps
 *   the first deletion time; links to it from other work orders read as null.
 * - The adapter maps uppercase priorities and types: `NONE` creates `medium`; `critical` reads `HIGH`.
 */
import type { Context, HandlerMapPart } from '../http/context.ts';
import { cachedJson } from '../http/json-cache.ts';
import { json, noContent, single } from '../http/envelope.ts';
import { nativePage } from '../paging/pages.ts';
import { CACHEABLE } from '../paging/page-cache.ts';
import { conflict, notFound } from '../http/problem.ts';
import { pathRecord } from './path-record.ts';
import { applyExtraFields } from '../domain/extra-fields.ts';
import { emptyParts } from '../domain/parts-section.ts';
import { issuePendingParts } from '../domain/parts-commands.ts';
import { ACTIVE_STATUSES } from '../domain/work-order-state.ts';
import type { Org } from '../store/org.ts';
import type { ExpenseRow, Schemas, WorkOrderRow } from '../store/types.ts';

type Status = Schemas['WorkOrderStatus'];
/** The fields of the create and update bodies (the update's are a subset, plus nullable links). */
type Body = Schemas['WorkOrderUpdateRequest'] & { workRequestId?: string; previous_id?: string };

/** The visible work order of the path's `id`, or 404. Shared by the expense and parts handlers. */
export function workOrderOf(ctx: Context): WorkOrderRow {
  return pathRecord(ctx.org.workOrders, ctx, 'The work order');
}

/** The visible (not retired) expense entries of a work order, in id order: through the index when there is one. */
export function expensesOf(org: Org, workOrderId: string): Iterable<ExpenseRow> {
  return org.expenses.holding('work_order_id', workOrderId) ?? [...org.expenses.values()].filter((e) => e.workOrderId === workOrderId);
}

/** Labor rates and costs, purchase costs, parts and other costs of a work order (inferred shape). */
export function costsOf(org: Org, row: WorkOrderRow): Schemas['WorkOrderCosts'] {
  const labor = row.labor.map((l) => ({ ...l, cost_minor: Math.round((l.rate_minor * l.minutes) / 60) }));
  let other = 0;
  for (const e of expensesOf(org, row.id)) other += e.data.amount_minor ?? 0;
  let parts = 0;
  for (const line of row.parts.lines) if (line.issued && line.unitCostMinor !== null) parts += (line.quantityUsed ?? 0) * line.unitCostMinor;
  return {
    currency: org.settings.currency,
    labor,
    labor_cost_minor: labor.reduce((n, l) => n + l.cost_minor, 0),
    purchase_cost_minor: row.purchaseCostMinor,
    parts_cost_minor: parts,
    other_cost_minor: other,
  };
}

const listJson = (row: WorkOrderRow): string =>
  cachedJson(row.data, 'work-order-list', () => {
    const { extraFields: _omitted, ...listed } = row.data;
    return listed;
  });

const detailJson = (org: Org, row: WorkOrderRow): string => JSON.stringify({ ...row.data, costs: costsOf(org, row) });

/** Checks the related records a body names (asset, location, users, teams): 404 when unavailable. */
function checkRelated(org: Org, body: Body): void {
  if (body.asset_id && !org.assets.get(body.asset_id)) throw notFound(`Asset ${body.asset_id}`);
  if (body.location_id && !org.locations.get(body.location_id)) throw notFound(`Location ${body.location_id}`);
  for (const u of body.assigned_to_user_ids ?? []) if (!org.users.get(u)?.active) throw notFound(`User ${u}`);
  for (const t of body.assigned_to_team_ids ?? []) if (!org.teams.has(t)) throw notFound(`Team ${t}`);
}

const NATIVE_PRIORITY: Record<Schemas['CompatPriority'], string> = { NONE: 'medium', LOW: 'low', MEDIUM: 'medium', HIGH: 'high' };
const COMPAT_PRIORITY: Record<string, Schemas['CompatPriority']> = { low: 'LOW', medium: 'MEDIUM', high: 'HIGH', critical: 'HIGH' };

function newWorkOrder(ctx: Context, body: Body): WorkOrderRow {
  const org = ctx.org;
  checkRelated(org, body);
  let previous: WorkOrderRow | undefined;
  if (body.previous_id) {
    previous = org.workOrders.get(body.previous_id);
    if (!previous) throw notFound(`Work order ${body.previous_id}`);
    if (previous.data.next_id) throw conflict(`Work order ${previous.id} already has a next work order.`);
  }
  const now = new Date(ctx.now).toISOString();
  const id = ctx.world.ids.next('wo');
  const status = (body.status ?? 'open') as Status;
  const row: WorkOrderRow = {
    id,
    parts: emptyParts(),
    labor: [],
    purchaseCostMinor: 0,
    data: {
      id,
      title: body.title!,
      description: body.description ?? null,
      priority: body.priority ?? 'medium',
      status,
      type: body.type ?? 'reactive',
      asset_id: body.asset_id ?? null,
      location_id: body.location_id ?? null,
      assigned_to_user_ids: body.assigned_to_user_ids ?? [],
      assigned_to_team_ids: body.assigned_to_team_ids ?? [],
      due_at: body.due_at ?? null,
      completed_at: status === 'done' ? now : null,
      workRequestId: body.workRequestId ?? null,
      previous_id: previous?.id ?? null,
      next_id: null,
      extraFields: applyExtraFields(org, 'workOrders', body.extraFields),
      created_at: now,
      updated_at: now,
    },
  };
  org.workOrders.insert(row);
  if (previous) org.workOrders.replace({ ...previous, data: { ...previous.data, next_id: id } });
  return row;
}

/**
 * Create with `workRequestId` (States and transitions › Work request): approve a pending request and
 * link both; return the linked work order on a repeat; refuse a rejected request.
 */
function createFromRequest(ctx: Context, body: Body): { row: WorkOrderRow; created: boolean } {
  const org = ctx.org;
  const request = org.workRequests.get(body.workRequestId!);
  if (!request) throw notFound(`Work request ${body.workRequestId}`);
  const linked = request.data.workOrderId ? org.workOrders.get(request.data.workOrderId) : undefined;
  if (linked) return { row: linked, created: false };
  if (request.data.requestStatus !== 'PENDING') {
    throw conflict(`Work request ${request.id} is ${request.data.requestStatus}; only a pending request can be approved into a work order.`, 'invalid_work_request_state');
  }
  const row = newWorkOrder(ctx, {
    title: request.data.title,
    description: request.data.description ?? null,
    priority: NATIVE_PRIORITY[request.data.priority ?? 'NONE'],
    ...(request.data.assetId ? { asset_id: request.data.assetId } : {}),
    ...(request.data.locationId ? { location_id: request.data.locationId } : {}),
    ...body,
  });
  org.workRequests.replace({ ...request, data: { ...request.data, requestStatus: 'APPROVED', workOrderId: row.id, updatedAt: row.data.created_at } });
  return { row, created: true };
}

function compatView(row: WorkOrderRow): Schemas['CompatWorkOrder'] {
  const d = row.data;
  return {
    id: d.id,
    title: d.title,
    description: d.description ?? null,
    priority: (Object.hasOwn(COMPAT_PRIORITY, d.priority) && COMPAT_PRIORITY[d.priority]) || 'MEDIUM',
    type: (d.type ?? 'reactive').toUpperCase(),
    status: (d.status ?? 'open').toUpperCase(),
    assetId: d.asset_id ?? null,
    locationId: d.location_id ?? null,
    workRequestId: d.workRequestId ?? null,
    createdAt: d.created_at!,
    updatedAt: d.updated_at!,
  };
}

export const workOrderHandlers = {
  listWorkOrders(ctx) {
    const p = ctx.params as Record<string, string | undefined>;
    const { status, type, priority, asset_id, location_id, assigned_to_user_id, assigned_to_team_id } = p;
    const filtered = [status, type, priority, asset_id, location_id, assigned_to_user_id, assigned_to_team_id].some((v) => v !== undefined);
    const using = Object.entries({ status, type, priority, asset_id, location_id, assigned_to_user_id, assigned_to_team_id })
      .filter((e): e is [string, string] => e[1] !== undefined)
      .map(([index, value]) => ({ index, values: index === 'status' && value === 'todo' ? [...ACTIVE_STATUSES] : [value] }));
    // One criterion on a one-valued field (or one value): the index's rows are exactly the matches.
    const exact = using.length === 1 && (using[0]!.values.length === 1 || using[0]!.index === 'status');
    return nativePage(ctx, ctx.org.workOrders, listJson, filtered
      ? (w) => {
          const d = w.data;
          return (status === undefined || (status === 'todo' ? ACTIVE_STATUSES.has(d.status!) : d.status === status))
            && (type === undefined || d.type === type)
            && (priority === undefined || d.priority === priority)
            && (asset_id === undefined || d.asset_id === asset_id)
            && (location_id === undefined || d.location_id === location_id)
            && (assigned_to_user_id === undefined || (d.assigned_to_user_ids ?? []).includes(assigned_to_user_id))
            && (assigned_to_team_id === undefined || (d.assigned_to_team_ids ?? []).includes(assigned_to_team_id));
        }
      : undefined, { ...CACHEABLE, using, exact });
  },

  createWorkOrder(ctx) {
    const body = ctx.body as Body;
    if (body.workRequestId !== undefined) {
      const { row, created } = createFromRequest(ctx, body);
      return single(ctx, detailJson(ctx.org, row), created ? 201 : 200);
    }
    return single(ctx, detailJson(ctx.org, newWorkOrder(ctx, body)), 201);
  },

  getWorkOrder(ctx) {
    return single(ctx, detailJson(ctx.org, workOrderOf(ctx)));
  },

  updateWorkOrder(ctx) {
    const row = workOrderOf(ctx);
    const body = ctx.body as Body;
    checkRelated(ctx.org, body);
    const now = new Date(ctx.now).toISOString();
    const extraFields = applyExtraFields(ctx.org, 'workOrders', body.extraFields, row.data.extraFields);
    const data = { ...row.data, ...body, extraFields, updated_at: now };
    if (body.status !== undefined && body.status !== row.data.status) data.completed_at = body.status === 'done' ? now : null;
    let next: WorkOrderRow = { ...row, data };
    if (body.status === 'done' && row.data.status !== 'done') next = issuePendingParts(ctx.org, next, now);
    ctx.org.workOrders.replace(next);
    return single(ctx, detailJson(ctx.org, next));
  },

  deleteWorkOrder(ctx) {
    const org = ctx.org;
    const row = org.workOrders.getAny(ctx.params.id as string);
    if (!row) throw notFound('The work order');
    if (row.deletedAt !== undefined) return noContent();
    org.workOrders.replace({ ...row, deletedAt: new Date(ctx.now).toISOString() });
    const prev = row.data.previous_id ? org.workOrders.getAny(row.data.previous_id) : undefined;
    if (prev && prev.data.next_id === row.id) org.workOrders.replace({ ...prev, data: { ...prev.data, next_id: null } });
    const next = row.data.next_id ? org.workOrders.getAny(row.data.next_id) : undefined;
    if (next && next.data.previous_id === row.id) org.workOrders.replace({ ...next, data: { ...next.data, previous_id: null } });
    return noContent();
  },

  createCompatWorkOrder(ctx) {
    const body = ctx.body as Schemas['CompatWorkOrderCreateRequest'];
    const row = newWorkOrder(ctx, {
      title: body.title,
      description: body.description ?? null,
      priority: NATIVE_PRIORITY[body.priority ?? 'NONE'],
      type: (body.type ?? 'REACTIVE').toLowerCase(),
      ...(body.assetId ? { asset_id: body.assetId } : {}),
      ...(body.locationId ? { location_id: body.locationId } : {}),
      ...(body.extraFields ? { extraFields: body.extraFields } : {}),
    });
    return json({ id: row.id });
  },

  getCompatWorkOrder(ctx) {
    return json({ workOrder: compatView(workOrderOf(ctx)) });
  },
} satisfies HandlerMapPart;
