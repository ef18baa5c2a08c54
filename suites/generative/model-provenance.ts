/**
 * Provenance of the transitions the stateful model (./model-rules.ts) checks: for each modelled operation
 * (`operationKey`: `commandWorkOrderParts:stale`), the words of docs/api-v1.md that describe what it
 * answers in the modelled state, or why the transition is inferred. A step is `described` only when its
 * route is stated too (contract/provenance.ts `routeProvenance`).
 *
 * The stateful run fails only `STATEFUL_REQUIREMENTS`, which are inferred: a model step — described or
 * not — never decides certification; each described rule is proved at its own requirement by its own
 * test (WO-011, METER-010, EXP-012, PARTS-002 …). The failure message names the step's provenance.
 */
import type { Operation } from '../../contract/openapi.ts';
import { routeProvenance, type Provenance, type Source } from '../../contract/provenance.ts';

/** The requirements a failing step of the stateful run fails (spec/requirements.yaml; inferred). */
export const STATEFUL_REQUIREMENTS = ['GEN-005'] as const;

const ST = 'States and transitions';
const described = (section: string, quote: string): Source => ({ section, quote });
const DELETE_WO = '| Work order | any visible | `DELETE /work-orders/{id}` | | soft-deleted | history, costs, procedure results and audit evidence retained; removed from public reads; 204 |';
const ARCHIVE = '| Meter | active | `DELETE /meters/{id}` | no automation uses it | archived | readings stay stored; 204 |';

/** Each modelled transition: the description's words, or (a string) why the model infers it. */
export const TRANSITIONS: Record<string, Source | string> = {
  createWorkOrder: described(ST, '| Work request | PENDING | native work-order create with `workRequestId` | request is pending | request approved | work order created and linked in the same operation |'),
  getWorkOrder: described(ST, DELETE_WO),
  updateWorkOrder: 'an update of a soft-deleted work order: the description says it leaves public reads, not what an update answers',
  deleteWorkOrder: described(ST, '| Work order | soft-deleted | `DELETE` repeated | | 204 | original deletion timestamp unchanged |'),
  listWorkOrders: 'that a list holds the records this sequence created is not said (only what a list returns)',
  listWorkOrderExpenses: described('Work-order expense entry (other cost)', 'Deleted entries are omitted.'),
  createWorkOrderExpense: 'the status of an entry refused on a soft-deleted (inactive) work order is not shown',
  retireWorkOrderExpense: described(ST, '| Expense entry | any | `DELETE /work-orders/{id}/other-costs/{costId}` | | retired, not physically deleted | 204; repeat also 204; available after cost tracking is disabled |'),
  getWorkOrderParts: 'that the version stays the same while nothing changes is the spec\'s inferred rule for `aggregateVersion`',
  'commandWorkOrderParts:fresh': 'the response body and status of a parts command are not shown',
  'commandWorkOrderParts:retry': described('Work-order parts', '| idempotencyKey | new per command; an uncertain response is retried with the identical command and key |'),
  'commandWorkOrderParts:stale': described('Work-order parts', 'A 409 means a conflict; the client refetches.'),
  'commandWorkOrderParts:reuse-key': 'what a reused key with another command answers is not shown',
  listMeters: 'whether archived meters are listed, and that a list holds this sequence\'s records, is not said',
  createMeter: described('Meters (native)', '| POST | `/meters` | meters:write | body with exactly one of `asset_id` or `location_id` | 201 `{data: Meter, meta}`; 400, 401, 403, 404, 429 |'),
  getMeter: described(ST, 'Meter: active (`is_active`) or archived.'),
  updateMeter: 'the meter update body is not shown',
  archiveMeter: `archiving an archived meter again is not described (${ARCHIVE.slice(0, 40)}… covers an active meter)`,
  listMeterReadings: described(ST, ARCHIVE),
  createMeterReading: 'the reading body is not shown, nor what a reading on an archived meter answers',
  listWorkRequests: 'the success status of the work-request list is not shown',
  createWorkRequest: 'the route, method and body of work-request writes are not shown',
  'updateWorkRequest:reject': 'the route, method and body of work-request writes are not shown',
  'updateWorkRequest:rename': 'the route, method and body of work-request writes are not shown',
  deleteWorkRequest: 'the route, method and body of work-request writes are not shown',
};

/**
 * The provenance of one step: the transition's words when it is described and its route stated, else
 * inferred with the reason (an unmodelled key is inferred too).
 */
export function stepProvenance(op: Pick<Operation, 'path' | 'method' | 'operationId'>, key: string): Provenance {
  const route = routeProvenance(op);
  if (route.level === 'inferred') return route;
  const t = TRANSITIONS[key] ?? TRANSITIONS[op.operationId];
  if (t === undefined) return { level: 'inferred', reason: `${key} is not among the modelled transitions` };
  return typeof t === 'string' ? { level: 'inferred', reason: t } : { level: 'stated', ...t };
}

/** A step's provenance as a few words for a failure message. */
export function describeStep(p: Provenance): string {
  return p.level === 'stated' ? `described, ${p.section}: "${p.quote.slice(0, 160)}"` : `inferred: ${p.reason}`;
}
