/**
 * Turning `--family`, `--level` and `--grep` into one Playwright --grep over test titles and their
 * requirement tags (tests carry `@FAMILY-NNN` tags).
 */
import { UsageError } from './exit-codes.ts';

export interface Selection { family?: string[]; level?: 'must' | 'inferred'; grep?: string }

/**
 * One regular expression selecting every condition at once (lookaheads), or undefined for all tests.
 * The catalog loads only for `--family` and `--level`. Rejects with UsageError.
 */
export async function selectionGrep(s: Selection): Promise<string | undefined> {
  const catalog = s.family?.length || s.level ? (await import('../contract/catalog.ts')).loadCatalog() : undefined;
  const parts: string[] = [];
  if (s.family?.length) {
    const families = s.family.map((f) => f.toUpperCase());
    for (const f of families) if (!catalog!.families[f]) throw new UsageError(`unknown family ${f}; families: ${Object.keys(catalog!.families).join(', ')}`);
    parts.push(`@(?:${families.join('|')})-\\d{3}\\b`);
  }
  if (s.level) {
    const ids = catalog!.requirements.filter((r) => r.level === s.level && r.testable).map((r) => r.id);
    parts.push(`@(?:${ids.join('|')})\\b`);
  }
  if (s.grep) {
    try {
      new RegExp(s.grep);
    } catch (e) {
      throw new UsageError(`--grep is not a regular expression: ${(e as Error).message}`);
    }
    parts.push(s.grep);
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : `^${parts.map((p) => `(?=.*(?:${p}))`).join('')}`;
}
