/**
 * The mutants of the self-test (docs/maintainers.md, "The self-test"): deliberately
 * non-conformant variants of the mock, each breaking exactly one requirement of the catalog, named by
 * its id. `npm run selftest` runs the suite against each one and expects a test of that requirement to
 * fail ("killed").
 * One file per family under families/. Enable one with `npm run mock -- --mutant NAME` or MOCK_MUTANT=NAME for the embedded mock.
 */
import { accessMutants } from './families/access.ts';
import { limitsMutants } from './families/limits.ts';
import { errorsMutants } from './families/errors.ts';
import { pagingMutants } from './families/paging.ts';
import { wireMutants } from './families/wire.ts';
import { workOrdersMutants } from './families/work-orders.ts';
import { partsMutants } from './families/parts.ts';
import { requestsMutants } from './families/requests.ts';
import { BROAD_MUTANTS } from './broad.ts';
import type { Mutant } from './mutant.ts';

export const MUTANTS: Mutant[] = [
  ...accessMutants,
  ...limitsMutants,
  ...errorsMutants,
  ...pagingMutants,
  ...wireMutants,
  ...workOrdersMutants,
  ...partsMutants,
  ...requestsMutants,
  // ── broad: one deviation on every operation (./broad.ts) ──
  ...BROAD_MUTANTS,
];

/** The mutant of this name, if any. */
export function findMutant(name: string): Mutant | undefined {
  return MUTANTS.find((m) => m.name === name);
}

/** The mutant of this name; throws with the list of names when there is none. */
export function mutantNamed(name: string): Mutant {
  const found = findMutant(name);
  if (!found) throw new Error(`no mutant ${name}; mutants: ${MUTANTS.map((m) => m.name).join(', ')}`);
  return found;
}
