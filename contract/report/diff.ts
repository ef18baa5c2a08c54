/**
 * Comparing two conformance reports (docs/ci.md, "Baselines"): which requirements regressed and
 * which were fixed, so CI can fail only on regressions against a baseline.
 * - a regression is a `must` requirement that failed now and did not before, or that passed before and
 *   is now not assessed or waived (a new waiver hides a failure: it is no fix);
 * - the same changes of an `inferred` requirement are listed as inferred regressions, which never fail;
 * - a fix is a requirement that failed before and passes (or is untestable) now.
 */
import type { ConformanceReport, RequirementVerdict } from './model.ts';

type Entry = { id: string; level: string; before: RequirementVerdict; after: RequirementVerdict; statement: string };

export interface ReportDiff {
  /** Regressions of `must` requirements: these fail a run against a baseline. */
  regressions: Entry[];
  /** Regressions of `inferred` requirements: reported, never failing. */
  inferredRegressions: Entry[];
  fixes: Entry[];
  /** Other verdict changes (for example failed → waived). */
  changes: Array<{ id: string; level: string; before: RequirementVerdict; after: RequirementVerdict }>;
  verdict: { before: string; after: string };
}

const GOOD: ReadonlySet<RequirementVerdict> = new Set(['passed', 'untestable']);

function regressed(before: RequirementVerdict, after: RequirementVerdict): boolean {
  return (after === 'failed' && before !== 'failed') || (before === 'passed' && (after === 'not assessed' || after === 'waived'));
}

/** The differences from `before` to `after`, requirement by requirement (ids absent from `before` count as not assessed). */
export function diffReports(before: ConformanceReport, after: ConformanceReport): ReportDiff {
  const old = new Map(before.requirements.map((r) => [r.id, r]));
  const diff: ReportDiff = { regressions: [], inferredRegressions: [], fixes: [], changes: [], verdict: { before: before.verdict, after: after.verdict } };
  for (const r of after.requirements) {
    const prev = old.get(r.id)?.verdict ?? 'not assessed';
    if (prev === r.verdict) continue;
    const entry = { id: r.id, level: r.level, before: prev, after: r.verdict, statement: r.statement };
    if (regressed(prev, r.verdict)) (r.level === 'must' ? diff.regressions : diff.inferredRegressions).push(entry);
    else if (prev === 'failed' && GOOD.has(r.verdict)) diff.fixes.push(entry);
    else diff.changes.push({ id: r.id, level: r.level, before: prev, after: r.verdict });
  }
  return diff;
}

/** A plain-text rendering of a diff, one line per change. */
export function formatDiff(d: ReportDiff): string {
  const lines = [`verdict: ${d.verdict.before} → ${d.verdict.after}`, `${d.regressions.length} regressions, ${d.inferredRegressions.length} inferred regressions (not failing), ${d.fixes.length} fixes, ${d.changes.length} other changes`];
  for (const r of d.regressions) lines.push(`  REGRESSION ${r.id} (${r.level}): ${r.before} → ${r.after} — ${r.statement}`);
  for (const r of d.inferredRegressions) lines.push(`  regression ${r.id} (${r.level}, not failing): ${r.before} → ${r.after} — ${r.statement}`);
  for (const r of d.fixes) lines.push(`  fixed      ${r.id} (${r.level}): ${r.before} → ${r.after}`);
  for (const r of d.changes) lines.push(`  changed    ${r.id} (${r.level}): ${r.before} → ${r.after}`);
  return lines.join('\n');
}
