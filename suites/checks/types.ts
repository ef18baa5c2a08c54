/**
 * The types of the universal checks (docs/design.md §5), Schemathesis-style: each is one named function applied to every
 * response the suite receives, and each proves one requirement of the catalog. A check returns the
 * problems it found (empty: passed); the client reports them by check name and requirement.
 */
import type { Exchange } from '../lib/exchange.ts';

/** Per-worker memory some checks need (ids seen, the errors_url prefix). */
export interface CheckState {
  requestIds: Set<string>;
  errorsUrl?: string;
}

/**
 * What a check found: a message, or a message with where (`at`: a JSON pointer into the body, or a header
 * name) and the rule it breaks without where it was seen (`rule`: findings of one rule, on any
 * operation or status, are one root cause; suites/reporter/root-causes.ts).
 */
export type Finding = string | { message: string; at?: string; rule?: string };

export interface Check {
  name: string;
  /** The requirement a failure of this check fails; for inferred operations, `inferredRequirement`. */
  requirement: string;
  inferredRequirement?: string;
  run(x: Exchange, state: CheckState): Finding[];
}
