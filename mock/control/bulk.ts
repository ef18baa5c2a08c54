/**
 * Benchmark support, not part of the API (docs/maintainers.md, "Benchmarks": page 1000 of 100,000 work
 * orders costs about what page 1 costs; bench/README.md): `POST /__mock/bulk/work-orders {count, orgId?}` loads `count` work orders
 * into an organization (default: the first of the fixtures, the main one). Each copies a visible seeded
 * work order, round robin, under a fresh id and without links to other records, so its shape is
 * whatever the work-order family seeds. Off with the rest of the control API (`--no-control`).
 */
import { emptyParts } from '../domain/parts-section.ts';
import { ProblemError } from '../http/problem.ts';
import type { Org } from '../store/org.ts';
import type { World } from '../store/world.ts';

/**
 * The most work orders one bulk request may load (100,000: about 85 MB and 1 s), and the most an
 * organization may hold through bulk loads (200,000).
 */
export const MAX_BULK_WORK_ORDERS = 100_000;
export const MAX_BULK_TOTAL = 200_000;

/** Appends `count` copies of the organization's visible work orders; returns the visible total. */
export function bulkWorkOrders(world: World, org: Org, count: number): number {
  const templates = org.workOrders.all().filter((w) => w.deletedAt === undefined);
  if (templates.length === 0) throw new ProblemError(409, 'conflict', `${org.id} has no work order to copy.`);
  for (let i = 0; i < count; i++) {
    const template = templates[i % templates.length]!;
    const id = world.ids.next('wo');
    org.workOrders.insert({
      ...template,
      id,
      parts: emptyParts(),
      data: { ...template.data, id, workRequestId: null, previous_id: null, next_id: null },
    });
  }
  return org.workOrders.visibleCount;
}
