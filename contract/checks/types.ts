/**
 * The types of the universal checks (docs/design.md §5), Schemathesis-style: each is one named function applied to every
 * response the suite receives, and each proves one requirement of the catalog. A check returns the
 * problems it found (empty: passed); the client reports them by check name and requirement.
 */
import type { RequirementId } from '../catalog.ts';
import type { Exchange } from '../exchange.ts';

/** Per-worker memory some checks need (ids seen, the errors_url prefix). */
export interface CheckState {
  requestIds: Set<string>;
  errorsUrl?: string;
}

/** What a check found: a message, or a message with where (a JSON pointer into the body, or a header name). */
export type Finding = string | { message: string; at: string };

export interface Check {
  name: string;
  /** The requirement a failure of this check fails; for inferred operations, `inferredRequirement`. */
  requirement: RequirementId;
  inferredRequirement?: RequirementId;
  run(x: Exchange, state: CheckState): Finding[];
}
