/**
 * Comparing two conformance reports (README "Waivers and baselines"): which requirements regressed (passed before, failed
 * now) and which were fixed, so CI can fail only on regressions against a baseline.
 */
import type { ConformanceReport, RequirementVerdict } from './model.ts';

export interface ReportDiff {
  regressions: Array<{ id: string; level: string; before: RequirementVerdict; after: RequirementVerdict; statement: string }>;
  fixes: Array<{ id: string; level: string; before: RequirementVerdict; after: RequirementVerdict; statement: string }>;
  /** Other verdict changes (for example passed → not assessed). */
  changes: Array<{ id: string; level: string; before: RequirementVerdict; after: RequirementVerdict }>;
  verdict: { before: string; after: string };
}

const BAD: ReadonlySet<RequirementVerdict> = new Set(['failed']);
const GOOD: ReadonlySet<RequirementVerdict> = new Set(['passed', 'waived', 'untestable']);

/** The differences from `before` to `after`, requirement by requirement (ids absent from `before` count as new). */
export function diffReports(before: ConformanceReport, after: ConformanceReport): ReportDiff {
  const old = new Map(before.requirements.map((r) => [r.id, r]));
  const diff: ReportDiff = { regressions: [], fixes: [], changes: [], verdict: { before: before.verdict, after: after.verdict } };
  for (const r of after.requirements) {
    const prev = old.get(r.id)?.verdict ?? 'not assessed';
    if (prev === r.verdict) continue;
    const entry = { id: r.id, level: r.level, before: prev, after: r.verdict, statement: r.statement };
    if (BAD.has(r.verdict) && !BAD.has(prev)) diff.regressions.push(entry);
    else if (BAD.has(prev) && GOOD.has(r.verdict)) diff.fixes.push(entry);
    else diff.changes.push({ id: r.id, level: r.level, before: prev, after: r.verdict });
  }
  return diff;
}

/** A plain-text rendering of a diff, one line per change. */
export function formatDiff(d: ReportDiff): string {
  const lines = [`verdict: ${d.verdict.before} → ${d.verdict.after}`, `${d.regressions.length} regressions, ${d.fixes.length} fixes, ${d.changes.length} other changes`];
  for (const r of d.regressions) lines.push(`  REGRESSION ${r.id} (${r.level}): ${r.before} → ${r.after} — ${r.statement}`);
  for (const r of d.fixes) lines.push(`  fixed      ${r.id} (${r.level}): ${r.before} → ${r.after}`);
  for (const r of d.changes) lines.push(`  changed    ${r.id} (${r.level}): ${r.before} → ${r.after}`);
  return lines.join('\n');
}
