/**
 * Layer 4b: scopes and feature modules (Authentication 7–8; module requirements).
 *
 * Every operation needs its one exact scope (a write scope never implies read), then its module, unless
 * the operation is exempt (`x-module-exempt`: meter archive, identifier retire). Where the module follows
 * the target entity (`x-module-of-entity`), it is checked from the path, query or body value.
 */
import type { Module, Operation } from '../../contract/openapi.ts';
import { ProblemError } from '../http/problem.ts';
import type { ApiKey } from '../store/types.ts';
import type { Org } from '../store/org.ts';

/** Throws 403 `insufficient_scope` unless the key holds the operation's scope. */
export function requireScope(op: Operation, key: ApiKey): void {
  if (!key.scopes.has(op.scope)) {
    throw new ProblemError(403, 'insufficient_scope', `This operation needs the ${op.scope} scope.`, { required_scope: op.scope });
  }
}

/** Throws 403 `module_disabled` when `module` is disabled for the organization. */
export function requireModule(org: Org, module: Module | undefined): void {
  if (module && !org.hasModule(module)) {
    throw new ProblemError(403, 'module_disabled', `The ${module} module is disabled for this organization.`, { module });
  }
}

/** The operation's own module check (not the entity-dependent part). */
export function requireOperationModule(op: Operation, org: Org): void {
  if (!op.moduleExempt) requireModule(org, op.module);
}

/** Values of `x-module-of-entity` found in a request: the modules those entities need. */
export function modulesOfEntity(op: Operation, params: Record<string, unknown>, body: unknown): Module[] {
  const rule = op.moduleOfEntity;
  if (!rule || op.moduleExempt) return [];
  let values: unknown[] = [];
  if (rule.in === 'path' || rule.in === 'query') values = [params[rule.name]];
  else if (body && typeof body === 'object') {
    const [list, field] = rule.name.endsWith('.target_type') && rule.name.includes('[]') ? rule.name.split('[].') : [undefined, rule.name];
    values = list ? (((body as Record<string, unknown>)[list!] as unknown[]) ?? []).map((i) => (i as Record<string, unknown>)?.[field!]) : [(body as Record<string, unknown>)[field!]];
  }
  return values.flatMap((v) => (typeof v === 'string' && Object.hasOwn(rule.modules, v) ? [rule.modules[v]!] : []));
}
