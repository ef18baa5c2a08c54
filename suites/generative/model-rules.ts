/**
 * The rules of the stateful generative run's model (suites/generative/stateful.spec.ts; docs/generative.md,
 * "Stateful sequences"): what the description's rules say each linked operation answers, given what the
 * run did before (States and transitions; Endpoints › Work orders, Work-order expenses, Work-order
 * parts, Meters; Resources and their fields). The state they read and change is model.ts.
 *
 * - Work orders: a soft-deleted one answers 404 to reads, updates, its expenses and its parts section;
 *   `DELETE` repeated answers 204 (WO-011, WO-012, WO-015).
 * - Meters: archiving answers 204, again 204; an archived meter reads `is_active` false; its readings
 *   stay listed (METER-010, METER-014).
 * - Work requests: a create with the `workRequestId` of a pending request approves it (201); the same
 *   create repeated returns the linked work order; a rejected one answers 409 (WO-016..018).
 * - Expenses: retiring answers 204, again 204, and the entry leaves the list (EXP-012, EXP-002).
 * - Parts section: a command on the last-read `aggregateVersion` with a new key applies; a stale
 *   version answers 409; the identical command with its key repeated answers the original status and
 *   body; the key with another command answers 409 (PARTS-002, PARTS-014, PARTS-018).
 *
 * Each rule gives the statuses a request may answer in the modelled state (undefined: any the spec
 * documents — the description says nothing for that state) and what the answer changes in the model.
 */
import { expect } from '@playwright/test';
import type { ApiResponse } from '../lib/client.ts';
import type { Answered, ExpenseEntry, ExpenseList, MeterEnvelope, MeterReadingList, PartsSection, WorkOrderEnvelope, WorkRequestWrapper } from '../lib/api-types.ts';
import { uid } from '../lib/provision.ts';
import type { Model, Rule, SectionState, Step } from './model.ts';

const ok = (status: number) => status >= 200 && status < 300;
const wo = (m: Model, s: Step) => m.workOrders.get(s.pathParams.id ?? '');
const deleted = (m: Model, s: Step) => wo(m, s)?.deleted === true;
const dataId = (res: ApiResponse<Answered<WorkOrderEnvelope | MeterEnvelope>>): string | undefined => res.body?.data?.id;

function section(m: Model, s: Step): SectionState | undefined {
  const w = wo(m, s);
  if (!w) return undefined;
  return (w.section ??= { stale: new Set(), allowed: [] });
}

/** Records a new version of a section, the previous one becoming stale. */
function newVersion(sec: SectionState, version: unknown): void {
  if (typeof version !== 'string') {
    sec.version = undefined;
    return;
  }
  if (sec.version && sec.version !== version) sec.stale.add(sec.version);
  // A section back in an earlier state may answer an earlier version again: it is current, not stale.
  sec.stale.delete(version);
  sec.version = version;
}

/** The rule of each operation the stateful run sends, by operationId. */
export const RULES: Record<string, Rule> = {
  createWorkOrder: {
    // With a workRequestId (an approval): the same create again, a rejection of the approved request.
    affects: ['createWorkOrder', 'updateWorkRequest:reject'],
    body: (m, s, profile) => ({ title: `GEN work order ${s.variant}`, priority: 'medium', ...profile.bodies.createWorkOrder, ...s.body }),
    expect(m, s) {
      const requestId = s.body?.workRequestId as string | undefined;
      if (requestId === undefined) return [201];
      const request = m.requests.get(requestId);
      if (!request) return undefined;
      if (request.status === 'PENDING') return [201];
      if (request.status === 'REJECTED') return [409];
      if (request.status === 'DELETED') return [404];
      // Approved: the repeated create returns the existing linked work order (its status is inferred).
      return m.workOrders.get(request.workOrderId!)?.deleted ? undefined : [200, 201];
    },
    apply(m, s, res: ApiResponse<Answered<WorkOrderEnvelope>>) {
      const requestId = s.body?.workRequestId as string | undefined;
      const request = requestId === undefined ? undefined : m.requests.get(requestId);
      if (request?.status === 'APPROVED' && ok(res.status)) {
        expect(dataId(res), `the repeated create with workRequestId ${requestId} returns the linked work order`).toBe(request.workOrderId);
        return;
      }
      if (res.status !== 201 || !dataId(res)) return;
      m.workOrders.set(dataId(res)!, { deleted: false, expenses: new Map() });
      if (request) Object.assign(request, { status: 'APPROVED', workOrderId: dataId(res) });
    },
  },
  // A listed work order of another client may be soft-deleted between the list and the read.
  getWorkOrder: { expect: (m, s) => (!wo(m, s) ? undefined : deleted(m, s) ? [404] : [200]) },
  updateWorkOrder: {
    body: (m, s) => ({ title: `GEN renamed ${s.variant}` }),
    expect: (m, s) => (!wo(m, s) ? undefined : deleted(m, s) ? [404] : [200]),
  },
  deleteWorkOrder: {
    expect: () => [204],
    affects: ['getWorkOrder', 'deleteWorkOrder', 'listWorkOrderExpenses', 'getWorkOrderParts', 'createWorkOrderExpense'],
    apply(m, s, res) {
      if (res.status === 204 && wo(m, s)) wo(m, s)!.deleted = true;
    },
  },
  // A list holds the organization's records: at least the live work orders this sequence created.
  listWorkOrders: { expect: () => [200], holds: (m) => [...m.workOrders.values()].some((w) => !w.deleted) },
  listWorkOrderExpenses: {
    expect: (m, s) => (deleted(m, s) ? [404] : [200]),
    apply(m, s, res: ApiResponse<Answered<ExpenseList>>) {
      const w = wo(m, s);
      if (!w || res.status !== 200) return;
      const active = [...w.expenses].filter(([, e]) => !e.retired).map(([id]) => id).sort();
      const listed = ((res.body?.items ?? []) as Array<{ id: string }>).map((i) => i.id).sort();
      expect(listed, 'the list holds the entries recorded and not retired').toEqual(active);
    },
  },
  createWorkOrderExpense: {
    affects: ['retireWorkOrderExpense', 'listWorkOrderExpenses'],
    body: (m, s, profile) => ({ user_id: profile.fixtures.activeUserId, type: 'other', amount_minor: 100 + s.variant, description: `GEN expense ${s.variant}` }),
    // A soft-deleted work order is not active: the entry is refused (EXP-011; the status is inferred).
    expect: (m, s) => (deleted(m, s) ? [404, 409] : [201]),
    apply(m, s, res: ApiResponse<Answered<ExpenseEntry>>) {
      if (res.status === 201 && typeof res.body?.id === 'string') wo(m, s)?.expenses.set(res.body.id, { retired: false });
    },
  },
  retireWorkOrderExpense: {
    affects: ['retireWorkOrderExpense', 'listWorkOrderExpenses'],
    // On a soft-deleted work order the description says nothing: any documented status.
    expect: (m, s) => (deleted(m, s) ? undefined : [204]),
    apply(m, s, res) {
      const entry = wo(m, s)?.expenses.get(s.pathParams.costId ?? '');
      if (entry && res.status === 204) entry.retired = true;
    },
  },
  getWorkOrderParts: {
    // Reading the section gives the version a command needs.
    affects: ['commandWorkOrderParts:fresh'],
    expect: (m, s) => (deleted(m, s) ? [404] : [200]),
    apply(m, s, res: ApiResponse<Answered<PartsSection>>) {
      const sec = section(m, s);
      if (!sec || res.status !== 200) return;
      // Nothing applied since the last read or answer: the version is the same.
      if (sec.version !== undefined) expect(res.body?.aggregateVersion, 'the section reads the version its last command answered or read').toBe(sec.version);
      newVersion(sec, res.body?.aggregateVersion);
      sec.allowed = res.body?.capabilities?.allowedTransitions ?? [];
    },
  },
  commandWorkOrderParts: {
    // fresh: on the version last read or answered, a new key; retry: the last applied command again,
    // with its key; stale: on a version seen before the current one; reuse-key: another command, its key.
    kinds: ['fresh', 'retry', 'stale', 'reuse-key'],
    affects: ['commandWorkOrderParts:retry', 'commandWorkOrderParts:stale', 'commandWorkOrderParts:reuse-key', 'getWorkOrderParts', 'commandWorkOrderParts:fresh'],
    applies(m, s) {
      const sec = section(m, s);
      if (!sec) return false;
      if (s.kind === 'retry' || s.kind === 'reuse-key') return sec.last !== undefined;
      if (s.kind === 'stale') return sec.stale.size > 0;
      return (s.body?.expectedAggregateVersion ?? sec.version) !== undefined;
    },
    body(m, s) {
      const sec = section(m, s);
      if (s.kind === 'retry' && sec?.last) return sec.last.command;
      const version = s.kind === 'stale' ? [...sec!.stale][0]! : ((s.body?.expectedAggregateVersion as string | undefined) ?? sec?.version ?? '0'.repeat(64));
      const key = s.kind === 'reuse-key' && sec?.last ? (sec.last.command.idempotencyKey as string) : `gen-${uid()}`;
      const target = sec?.allowed.length ? sec.allowed[s.variant % sec.allowed.length] : undefined;
      // A reused key goes with another command than the one it was first sent with.
      const transition = s.kind === 'reuse-key' ? sec?.last?.command.operation !== 'transition' : target !== undefined;
      return transition
        ? { operation: 'transition', idempotencyKey: key, expectedAggregateVersion: version, targetStatus: target ?? 'assigned' }
        : { operation: 'replace', idempotencyKey: key, expectedAggregateVersion: version, items: [] };
    },
    expect(m, s) {
      const sec = section(m, s);
      // Commands on a soft-deleted work order: the description says nothing (any documented status).
      if (!sec || deleted(m, s)) return undefined;
      if (s.kind === 'retry') return [sec.last!.status];
      if (s.kind === 'stale' || s.kind === 'reuse-key') return [409];
      const version = (s.body?.expectedAggregateVersion as string | undefined) ?? sec.version;
      if (version !== undefined && version === sec.version) return [200];
      return version !== undefined && sec.stale.has(version) ? [409] : undefined;
    },
    apply(m, s, res: ApiResponse<Answered<PartsSection>>) {
      const sec = section(m, s);
      if (!sec) return;
      if (s.kind === 'retry') {
        if (res.status === sec.last!.status) expect(res.body, 'the identical command with its key answers the original body').toEqual(sec.last!.body);
        return;
      }
      if (!ok(res.status)) return;
      sec.last = { command: s.body!, status: res.status, body: res.body };
      newVersion(sec, res.body?.aggregateVersion);
      sec.allowed = res.body?.capabilities?.allowedTransitions ?? [];
    },
  },
  // Whether archived meters are listed the description does not say: an active one is.
  listMeters: { expect: () => [200], holds: (m) => [...m.meters.values()].some((x) => x.active) },
  createMeter: {
    body: (m, s) => s.body,
    expect: () => [201],
    apply(m, s, res: ApiResponse<Answered<MeterEnvelope>>) {
      if (res.status === 201 && dataId(res)) m.meters.set(dataId(res)!, { active: true, readings: 0 });
    },
  },
  getMeter: {
    expect: (m, s) => (m.meters.has(s.pathParams.id ?? '') ? [200] : undefined),
    apply(m, s, res: ApiResponse<Answered<MeterEnvelope>>) {
      const meter = m.meters.get(s.pathParams.id ?? '');
      if (meter && res.status === 200) expect(res.body?.data?.is_active, 'an archived meter reads is_active false, an active one true').toBe(meter.active);
    },
  },
  updateMeter: {
    body: (m, s) => ({ description: `GEN meter note ${s.variant}` }),
    expect: (m, s) => (m.meters.get(s.pathParams.id ?? '')?.active ? [200] : undefined),
  },
  archiveMeter: {
    affects: ['getMeter', 'archiveMeter', 'listMeterReadings'],
    expect: (m, s) => (m.meters.has(s.pathParams.id ?? '') ? [204] : undefined),
    apply(m, s, res) {
      const meter = m.meters.get(s.pathParams.id ?? '');
      if (meter && res.status === 204) meter.active = false;
    },
  },
  listMeterReadings: {
    expect: () => [200],
    apply(m, s, res: ApiResponse<Answered<MeterReadingList>>) {
      const meter = m.meters.get(s.pathParams.id ?? '');
      if (meter && res.status === 200) expect((res.body?.data ?? []).length, 'the readings recorded stay listed (archived too)').toBe(Math.min(meter.readings, 20));
    },
  },
  createMeterReading: {
    affects: ['listMeterReadings'],
    body: (m, s, profile) => ({ ...profile.bodies.createMeterReading, value: 10 * ((m.meters.get(s.pathParams.id ?? '')?.readings ?? 0) + 1) }),
    expect: (m, s) => (m.meters.get(s.pathParams.id ?? '')?.active ? [201] : undefined),
    apply(m, s, res) {
      const meter = m.meters.get(s.pathParams.id ?? '');
      if (meter && ok(res.status)) meter.readings++;
    },
  },
  listWorkRequests: { expect: () => [200] },
  createWorkRequest: {
    body: (m, s) => ({ title: `GEN request ${s.variant}`, priority: 'LOW' }),
    expect: () => undefined,
    apply(m, s, res: ApiResponse<Answered<WorkRequestWrapper>>) {
      const id = res.body?.workRequest?.id;
      if (ok(res.status) && typeof id === 'string') m.requests.set(id, { status: 'PENDING' });
    },
  },
  updateWorkRequest: {
    // A rejection: the approving create answers 409, a second rejection too.
    affects: ['createWorkOrder', 'updateWorkRequest:reject'],
    kinds: ['reject', 'rename'],
    body: (m, s) => (s.kind === 'reject' ? { requestStatus: 'REJECTED' } : { title: `GEN request renamed ${s.variant}` }),
    expect(m, s) {
      const request = m.requests.get(s.pathParams.id ?? '');
      if (!request) return undefined;
      if (request.status === 'DELETED') return [404];
      if (s.kind === 'reject') return request.status === 'PENDING' ? [200] : [409];
      return [200];
    },
    apply(m, s, res) {
      const request = m.requests.get(s.pathParams.id ?? '');
      if (request && res.status === 200 && s.kind === 'reject') request.status = 'REJECTED';
    },
  },
  deleteWorkRequest: {
    affects: ['createWorkOrder', 'updateWorkRequest', 'deleteWorkRequest'],
    expect: (m, s) => (m.requests.get(s.pathParams.id ?? '')?.status === 'DELETED' ? [404] : m.requests.has(s.pathParams.id ?? '') ? [204] : undefined),
    apply(m, s, res) {
      const request = m.requests.get(s.pathParams.id ?? '');
      if (request && res.status === 204) request.status = 'DELETED';
    },
  },
};
