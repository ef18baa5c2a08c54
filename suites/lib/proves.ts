/**
 * Names the requirements an assertion proves, in its message: `expect(x, proves(['PARTS-016'], 'a stale
 * version')).toBe(409)` fails, when it fails, only PARTS-016 of the test's tags (the reporter reads the
 * `[ID, …]` prefix: suites/reporter/verdicts.ts `failedRequirementsOf`). For tests tagged with several
 * requirements, so that one deviation fails only the requirement it breaks (docs/design.md §6). No ids:
 * the message alone (a failure then fails every tag of the test).
 */
import type { RequirementId } from '../../contract/catalog.ts';

export function proves(ids: readonly RequirementId[], what: string): string {
  return ids.length ? `[${ids.join(', ')}] ${what}` : what;
}
