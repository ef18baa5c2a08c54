/**
 * The modelled state of the stateful generative run (suites/generative/stateful.spec.ts; docs/generative.md,
 * "Stateful sequences"): the records a sequence created and their states as the description's rules
 * tell them apart (States and transitions; Endpoints › Work orders, Work-order expenses, Work-order
 * parts, Meters), the responses links are followed from, and the shapes of a step and of a rule. The
 * rules themselves, per operation, are in model-rules.ts.
 */
import type { TargetProfile } from '../../contract/profile.ts';
import type { ApiResponse } from '../lib/client.ts';

/** A response the run recorded, which links can be followed from. */
export interface Recorded {
  operationId: string;
  status: number;
  requestPath: Record<string, string>;
  requestBody?: unknown;
  responseBody: unknown;
}

export interface WorkOrderState { deleted: boolean; expenses: Map<string, { retired: boolean }>; section?: SectionState }
export interface SectionState {
  /** The last-read or last-answered `aggregateVersion` (undefined: to be read). */
  version?: string;
  /** Versions seen before the current one. */
  stale: Set<string>;
  allowed: string[];
  last?: { command: Record<string, unknown>; status: number; body: unknown };
}
export interface MeterState { active: boolean; readings: number }
export interface RequestState { status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'DELETED'; workOrderId?: string }

/** The modelled state of one sequence: the records this run created, by id. */
export class Model {
  workOrders = new Map<string, WorkOrderState>();
  meters = new Map<string, MeterState>();
  requests = new Map<string, RequestState>();
  /** Recorded responses by operationId: the sources links are followed from. */
  recorded = new Map<string, Recorded[]>();
  /** Requests sent in this sequence (how many; the budget bounds it). */
  sent = 0;
  /** The record (own: created in this sequence) the last step acted on: the next follows favour it. */
  focus?: string;
  /** The operation (`operationKey`) of the last step on an own record, and that record. */
  last?: { operation: string; record: string };
  /** Operation and record pairs sent, each with the record's modelled state then (`triedKey`). */
  tried = new Set<string>();

  /** Whether the sequence created the record `id` (a work order, meter or work request). */
  owns(id: string | undefined): boolean {
    return id !== undefined && (this.workOrders.has(id) || this.meters.has(id) || this.requests.has(id));
  }

  /**
   * The abstract state of an own record, as a string: what the rules tell apart, not every value (a work
   * order: deleted, with an active and with a retired expense, a section version read, a stale one, its
   * last command's status; a meter: active, with readings; a request: its status). '' for another's.
   */
  stateOf(id: string): string {
    const w = this.workOrders.get(id);
    if (w) {
      const expenses = [...w.expenses.values()];
      return JSON.stringify([w.deleted, expenses.some((e) => !e.retired), expenses.some((e) => e.retired), w.section?.version !== undefined, (w.section?.stale.size ?? 0) > 0, w.section?.last?.status]);
    }
    const meter = this.meters.get(id);
    if (meter) return JSON.stringify([meter.active, meter.readings > 0]);
    return this.requests.get(id)?.status ?? '';
  }

  /**
   * The key of sending `operationId` on record `id` in the record's current modelled state: a pair not
   * tried yet in this state is a transition of the model not explored yet.
   */
  triedKey(operation: string, id: string | undefined): string {
    return `${operation} ${id ?? ''} ${id === undefined ? '' : this.stateOf(id)}`;
  }

  /** The same key for any record of the sequence (`*`) in the same state as `id`. */
  triedOnAnyKey(operation: string, id: string): string {
    return `${operation} * ${this.stateOf(id)}`;
  }

  record(r: Recorded): void {
    const list = this.recorded.get(r.operationId) ?? [];
    list.push(r);
    this.recorded.set(r.operationId, list);
  }
}

/** One request to send: what the link gave (path, body members) plus what the rule adds. */
export interface Step {
  method: string;
  path: string;
  pathParams: Record<string, string>;
  body?: Record<string, unknown>;
  /** A number the command carries, for generated values (titles, reading values, which transition). */
  variant: number;
  /** Which of the rule's `kinds` the step is (a parts command: fresh, retry, stale, reuse-key). */
  kind?: string;
}

/** The rule of one operation: what it adds to the body, what it may answer, what the answer changes. */
export interface Rule {
  /** Whether the step can run in this state (e.g. a retry needs an earlier command). */
  applies?(m: Model, s: Step): boolean;
  body?(m: Model, s: Step, profile: TargetProfile): Record<string, unknown> | undefined;
  expect(m: Model, s: Step): number[] | undefined;
  apply?(m: Model, s: Step, res: ApiResponse): void;
  /** For a list: whether the list must hold at least one record in this state (its first item exists). */
  holds?(m: Model): boolean;
  /** The kinds of request the rule tells apart (each its own transition of the model); `Step.kind` names one. */
  kinds?: string[];
  /**
   * The operations (`operationKey`) whose modelled answer on the same record this operation's answer can
   * change or enable: what to send next to see the rule at work (a delete → the read and the delete
   * again). An operation that has them is a transition of the model.
   */
  affects?: string[];
}

/** An operation as the model tells its kinds apart: with the step's kind (`commandWorkOrderParts:stale`). */
export function operationKey(operationId: string, s: Pick<Step, 'kind'>): string {
  return s.kind ? `${operationId}:${s.kind}` : operationId;
}
