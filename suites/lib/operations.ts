/** The spec's operations as the suite's operation-wide tests need them. */
import { loadOperations, loadScopes, type Operation } from '../../contract/openapi.ts';

/** Requirement proving that a scope grants its operations (Authentication, the scope table). */
export const SCOPE_REQUIREMENT: Record<string, string> = {
  'work_orders:read': 'SCOPE-010',
  'work_orders:write': 'SCOPE-011',
  'work_requests:read': 'SCOPE-012',
  'work_request_portals:read': 'SCOPE-013',
  'assets:read': 'SCOPE-014',
  'meters:read': 'SCOPE-015',
  'meters:write': 'SCOPE-016',
  'custom_fields:read': 'SCOPE-017',
  'custom_fields:write': 'SCOPE-018',
  'parts:write': 'SCOPE-019',
};

export const operations: Operation[] = loadOperations();
export const scopes: string[] = loadScopes();

/** A path of the operation with placeholder ids (for requests that fail before the id matters). */
export function placeholderPath(op: Operation): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'entity' ? 'assets' : op.parameters.find((p) => p.name === name && p.in === 'path' && (p.schema as { type?: string }).type === 'integer') ? '1' : `placeholder_${name}`));
}
