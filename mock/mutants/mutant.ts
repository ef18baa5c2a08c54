/** The self-test's mutants (docs/maintainers.md, "The self-test"): each an alteration of the mock that breaks one requirement. */
import type { RequirementId } from '../../contract/catalog.ts';
import type { Alteration } from '../hooks/alteration.ts';

/** A named deviation that breaks one requirement of the catalog. */
export interface Mutant {
  name: string;
  /** The requirement the mutant breaks; a test of it must fail. */
  requirement: RequirementId;
  /** What the mutant does, in words. */
  description: string;
  /**
   * Other requirements whose tests provoke the situation the mutant breaks, when the requirement is
   * proved by a universal check rather than its own tests (a 429 arises only in the rate-limit tests).
   */
  reachedBy?: RequirementId[];
  /**
   * One deviation applied to every operation (./broad.ts): the self-test runs the whole suite against it,
   * not only the tests of `requirement`, and expects one root cause.
   */
  broad?: boolean;
  /**
   * The requirements whose statement gives the rule the mutant breaks (default: `requirement` alone). A
   * failed `must` outside them counts toward the mutant's blast radius.
   */
  states?: RequirementId[];
  mutation: Alteration;
}
