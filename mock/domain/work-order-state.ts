/**
 * Whether a work order is active (inferred: visible and not completed, canceled or skipped). Expenses
 * need an active work order, parts return stock only to one, and the parts section is history-only
 * otherwise (Endpoints › Work-order expenses; States and transitions › Part status).
 */
import type { WorkOrderRow } from '../store/types.ts';

/** Statuses in which a work order is active (the list filter `todo`). */
export const ACTIVE_STATUSES: ReadonlySet<string> = new Set(['open', 'on_hold', 'in_progress']);

/** Whether a work order is visible and active. */
export function isActive(row: WorkOrderRow): boolean {
  return row.deletedAt === undefined && ACTIVE_STATUSES.has(row.data.status ?? 'open');
}
