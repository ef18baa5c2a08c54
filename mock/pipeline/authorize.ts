/**
 * Stage authorize (docs/design.md §4, layer 4b): scopes and feature modules (Authentication 7–8; module
 * requirements).
 *
 * Every operation needs its one exact scope (a write scope never implies read), then its module, unless
 * the operation is exempt (`x-module-exempt`: meter archive, identifier retire). Where the module follows
 * the target entity (`x-module-of-entity`), it is checked from the path or query value here, and from
 * the body once the body is valid (read-body.ts): `moduleCheck` is the one place both ask.
 */
import type { Module, Operation } from '../../contract/openapi.ts';
import { ProblemError } from '../http/problem.ts';
import type { ApiKey } from '../store/types.ts';
import type { Org } from '../store/org.ts';
import { requireModule } from '../domain/modules.ts';
import type { Exchange } from './exchange.ts';
import type { Step } from './stages.ts';

/** Throws 403 `module_disabled` when a module the request needs is disabled (`body` undefined: not read yet). */
export type ModuleCheck = (op: Operation, org: Org, params: Record<string, unknown>, body: unknown) => void;

/** Decisions an extension may replace (the self-test's mutants); the spec's rules by default. */
export interface AuthorizePolicy {
  /** Whether a key passes an operation's scope check (default: it holds exactly that scope). */
  scopeAllows?(op: Operation, key: ApiKey): boolean;
  /** Whether an operation's module checks are skipped (default: never). */
  skipModule?(op: Operation): boolean;
}

/** Throws 403 `insufficient_scope` unless the key holds the operation's scope. */
export function requireScope(op: Operation, key: ApiKey): void {
  if (!key.scopes.has(op.scope)) {
    throw new ProblemError(403, 'insufficient_scope', `This operation needs the ${op.scope} scope.`, { required_scope: op.scope });
  }
}

/** The module check: the operation's module (unless exempt), then those of the entities the request names. */
export const requireModules: ModuleCheck = (op, org, params, body) => {
  if (op.moduleExempt) return;
  requireModule(org, op.module);
  if (op.moduleOfEntity) for (const module of modulesOfEntity(op, params, body)) requireModule(org, module);
};

/** The module check under a policy, built once. */
export function moduleCheck(policy: AuthorizePolicy): ModuleCheck {
  const skip = policy.skipModule;
  return skip ? (op, org, params, body) => (skip(op) ? undefined : requireModules(op, org, params, body)) : requireModules;
}

/** The authorize step: the scope, then the modules known before the body. */
export function authorizeStep(policy: AuthorizePolicy, modules: ModuleCheck): Step {
  const allows = policy.scopeAllows;
  return (ex: Exchange) => {
    if (!allows?.(ex.op, ex.key)) requireScope(ex.op, ex.key);
    modules(ex.op, ex.org, ex.params, undefined);
  };
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
