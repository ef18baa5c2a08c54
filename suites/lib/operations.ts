/** The spec's operations as the suite's operation-wide tests need them. */
import { runSettings } from './settings.ts';
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

/** Whether a parameter schema lists its values (`enum`, as `{entity}`): a value to pick, not an id. */
export function isEnumSchema(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && 'enum' in schema;
}

/** Whether the operation's path names a record: a path parameter that is an id, not a listed value (`{entity}`). */
export function namesRecord(op: Operation): boolean {
  return op.parameters.some((p) => p.in === 'path' && !isEnumSchema(p.schema));
}

/** A path of the operation with placeholder ids (for requests that fail before the id matters). */
export function placeholderPath(op: Operation): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'entity' ? 'assets' : op.parameters.find((p) => p.name === name && p.in === 'path' && (p.schema as { type?: string }).type === 'integer') ? '1' : `placeholder_${name}`));
}

/** The resource families a path names (its literal segments), as scope prefixes (`work-orders` → `work_orders`). */
const PATH_FAMILIES: Record<string, string[]> = {
  customfields: ['custom_fields'],
  meters: ['meters'],
  readings: ['meters'],
  'work-orders': ['work_orders'],
  workorders: ['work_orders'],
  'other-costs': ['work_orders'],
  parts: ['parts'],
  workrequests: ['work_requests', 'work_request_portals'],
  workrequestportals: ['work_request_portals', 'work_requests'],
  assets: ['assets'],
  locations: ['locations'],
  identifiers: ['identifiers'],
};

/** How many further single scopes each operation is tried with, beyond those its path names. */
const ROTATED_SCOPES = 3;

/**
 * The single scopes other than `op.scope` the scope matrix sends `op` with (Authentication 6–7,
 * SCOPE-002) when the profile has no all-but-one keys (`keys.allScopesExcept`, which prove the same in
 * one request per operation: conformance/scopes.spec.ts): by default every other scope (the full
 * matrix: a certification must find a mapping error on any pair). With MMS_SCOPE_MATRIX=sample, about a third of the requests: the scopes a scope-mapping
 * error would most plausibly grant — both scopes of every family the path names
 * (`/assets/{id}/parts/{partId}` → assets and parts), similarly named families included — and
 * ROTATED_SCOPES more, chosen by the operation's position `index` so that across the 55 operations every
 * single-scope key is tried on many operations it must not reach (a quick gate, not a certification).
 */
export function otherScopesToTry(op: Operation, index: number, matrix = runSettings().scopeMatrix): string[] {
  const others = scopes.filter((s) => s !== op.scope);
  if (matrix !== 'sample') return others;
  const families = new Set(op.path.split('/').flatMap((segment) => PATH_FAMILIES[segment] ?? []));
  const named = others.filter((s) => families.has(s.split(':')[0]!));
  const rest = others.filter((s) => !named.includes(s));
  return [...named, ...rotatingShare(rest, index, ROTATED_SCOPES)];
}

/**
 * `count` items of `items` for the `index`-th member of a sample (items `index*count`, `index*count+1`,
 * … modulo the length): consecutive indexes take consecutive shares, so a share per operation spreads
 * every item over the operations. All of `items` when `count` ≥ its length.
 */
export function rotatingShare<T>(items: readonly T[], index: number, count: number): T[] {
  if (count >= items.length) return [...items];
  return Array.from({ length: count }, (_, k) => items[(index * count + k) % items.length]!);
}
