/**
 * Feature modules (Authentication 8: "Feature modules must also be enabled for the organization. A
 * disabled module returns 403 `module_disabled` even when the scope is held."): the one check, used by
 * the authorize stage (pipeline/authorize.ts) and by the rules that decide a module from the record
 * (work-order parts: "A disabled module never permits new stock commitments on work-order parts").
 */
import type { Module } from '../../contract/openapi.ts';
import { ProblemError } from '../http/problem.ts';
import type { Org } from '../store/org.ts';

/** Throws 403 `module_disabled` when `module` is disabled for the organization. */
export function requireModule(org: Org, module: Module | undefined): void {
  if (module && !org.hasModule(module)) {
    throw new ProblemError(403, 'module_disabled', `The ${module} module is disabled for this organization.`, { module });
  }
}
