/**
 * The types of the universal checks (docs/design.md §5), Schemathesis-style: each is one named function applied to every
 * response the suite receives, and each proves one requirement of the catalog. A check returns the
 * problems it found (empty: passed); the client reports them by check name and requirement.
 */
import type { RequirementId } from '../catalog.ts';
import type { Exchange } from '../exchange.ts';
import type { Provenance } from '../provenance.ts';

/** Per-worker memory some checks need (ids seen, the errors_url prefix). */
export interface CheckState {
  requestIds: Set<string>;
  errorsUrl?: string;
}

/**
 * What a check found: a message, or a message with where (`at`: a JSON pointer into the body, or a header
 * name), the rule it breaks without where it was seen (`rule`: findings of one rule, on any operation or
 * status, are one root cause; suites/reporter/root-causes.ts) and, when the check read it, the
 * provenance of what was broken (contract/provenance.ts).
 */
export type Finding = string | { message: string; at?: string; rule?: string; provenance?: Provenance };

export interface Check {
  name: string;
  /** The requirement a failure of this check fails; for inferred operations, `inferredRequirement`. */
  requirement: RequirementId;
  inferredRequirement?: RequirementId;
  run(x: Exchange, state: CheckState): Finding[];
}

/**
 * The requirement a finding fails: the check's inferred requirement when the operation's route is
 * inferred or the finding broke an inferred keyword (its provenance), else the check's own.
 */
export function requirementOf(check: Check, x: Pick<Exchange, 'operation'>, finding: Finding): RequirementId {
  const inferred = x.operation?.inferred === true || (typeof finding !== 'string' && finding.provenance?.level === 'inferred');
  return inferred && check.inferredRequirement ? check.inferredRequirement : check.requirement;
}
