/**
 * The status is one the description lists for the operation, or a cross-cutting one every operation can
 * give: 401 (Authentication), 403 (scopes, modules), 429 (rate limits) (SPEC-001; SPEC-005 for operations
 * whose route is inferred).
 */
import type { Check } from './registry.ts';

const CROSS_CUTTING = new Set([401, 403, 429]);

export const statusDocumented: Check = {
  name: 'statusDocumented',
  requirement: 'SPEC-001',
  inferredRequirement: 'SPEC-005',
  run(x) {
    const op = x.operation;
    if (!op || x.status >= 500 || CROSS_CUTTING.has(x.status)) return [];
    if (op.responses.some((r) => r.status === x.status)) return [];
    return [`${op.operationId} answered ${x.status}, which is not documented (documented: ${op.responses.map((r) => r.status).join(', ')})`];
  },
};
