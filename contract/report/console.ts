/**
 * What the console prints after the verdict line (README, "Two commands"): one line per failed `must`
 * requirement — id, the check or "assertion", the operation, the first line of the message — then
 * the root causes (docs/design.md §6), so a run read in a CI log says what to fix without opening a file.
 * Text a target chose (a problem's type or code in a message) is printed without control characters
 * (contract/printable.ts): no terminal escape of a target reaches a CI log.
 */
import { printable } from '../../contract/printable.ts';
import type { ConformanceReport } from './model.ts';

const MAX_LINES = 40;

const oneLine = (text: string, max = 160) => {
  const line = printable(text.split('\n').find((l) => l.trim())?.trim() ?? '', true);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The seed line: the run's seed, the seeds explored, and how to get the same verdicts again. */
export function seedLine(report: ConformanceReport): string {
  const { seed, exploreSeeds } = report.run;
  if (seed === undefined) return 'Seed: not recorded.';
  return `Seed: ${seed}${exploreSeeds ? ` (and ${exploreSeeds} explored seed${exploreSeeds === 1 ? '' : 's'} per property)` : ''} — the same seed, kit version and target state give the same verdicts; rerun with --seed ${seed}.`;
}

/** The failure lines and root causes of a report, newline-terminated; empty when nothing failed. */
export function renderFailures(report: ConformanceReport): string {
  const failing = report.requirements.filter((r) => r.level === 'must' && r.verdict === 'failed');
  const lines: string[] = [];
  if (failing.length) {
    lines.push('', `Failed must requirements (${failing.length}):`);
    for (const r of failing.slice(0, MAX_LINES)) {
      const f = r.failures[0]!;
      const operation = f.evidence.at(-1)?.operationId ?? (f.evidence.at(-1) ? `${f.evidence.at(-1)!.method} ${f.evidence.at(-1)!.path}` : '-');
      lines.push(`  ${r.id.padEnd(10)} ${(f.check ?? 'assertion').padEnd(20)} ${operation.padEnd(26)} ${oneLine(f.message)}${r.failures.length > 1 ? ` (+${r.failures.length - 1} more)` : ''}`);
    }
    if (failing.length > MAX_LINES) lines.push(`  … and ${failing.length - MAX_LINES} more`);
  }
  const causes = report.rootCauses;
  if (causes.length) {
    lines.push('', `${causes.length} root cause${causes.length === 1 ? '' : 's'}:`);
    for (const c of causes.slice(0, MAX_LINES)) {
      lines.push(`  ${c.id.padEnd(6)} [${c.level}] ${oneLine(c.summary, 220)} — fails ${c.requirements.join(', ')}`);
      if (c.level === 'must' && c.reproduce) lines.push(`         reproduce: ${c.reproduce.command}`);
    }
    if (causes.length > MAX_LINES) lines.push(`  … and ${causes.length - MAX_LINES} more (see the reports)`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}
