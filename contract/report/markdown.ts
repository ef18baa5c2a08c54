/**
 * The Markdown summary of a conformance report (docs/ci.md, "JUnit and the step summary"), short enough for a pull-request comment or
 * `$GITHUB_STEP_SUMMARY`: the verdict, the root causes first (docs/design.md §6), the counts, and each
 * failing `must` requirement once with its first message line and root causes, then the `curl` command
 * reproducing each failed requirement's failing exchange (contract/report/reproduce.ts).
 * Text a target chose (messages, root-cause summaries, reasons) is inert: control characters stripped,
 * HTML and Markdown escaped (`text`), and code inside a fence longer than any backtick run in it.
 */
import { printable } from '../../contract/printable.ts';
import type { ConformanceReport } from './model.ts';
import { curlCommand } from './reproduce.ts';

/** `raw` as inert Markdown on one line: no control character, HTML's `&<>` as entities, Markdown's punctuation backslash-escaped. */
export function text(raw: string): string {
  return printable(raw, true).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[\\`*_[\]|~#!()]/g, '\\$&');
}

/**
 * A root cause's summary, which the kit writes with code spans around target text (an operation, a
 * pointer): control characters stripped, HTML's `&<>` as entities, `|[]` escaped; backticks kept.
 */
function summary(raw: string): string {
  return printable(raw, true).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[|[\]]/g, '\\$&');
}

/** A fenced `sh` block longer than any run of backticks in `code` (control characters stripped). */
function fenced(raw: string): string[] {
  const code = printable(raw);
  const fence = '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [`${fence}sh`, code, fence];
}

/** Each failed requirement (must first, at most 50) with the `curl` command of its first failure's exchange. */
function reproductionLines(report: ConformanceReport): string[] {
  const failed = report.requirements.filter((r) => r.verdict === 'failed' && r.failures.some((f) => f.evidence.length > 0));
  if (failed.length === 0) return [];
  failed.sort((a, b) => Number(a.level !== 'must') - Number(b.level !== 'must'));
  const lines = ['', `### Reproduce (${failed.length})`, '', 'Keys are variables named after their profile role (`export MMS_KEY_LIVE=...`).'];
  for (const r of failed.slice(0, 50)) {
    const f = r.failures.find((x) => x.evidence.length > 0)!;
    lines.push('', `**${r.id}** (${r.level}) ${f.check ? `[${f.check}] ` : ''}${text(f.message.split('\n')[0]!.slice(0, 200))}`, '', ...fenced(curlCommand(f.evidence[f.evidence.length - 1]!)));
  }
  if (failed.length > 50) lines.push('', `… and ${failed.length - 50} more (see conformance.html).`);
  return lines;
}

/** The kit's own text (a catalog statement) in a table cell. */
const cell = (raw: string) => raw.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The root causes, one numbered line each (at most 30). */
function rootCauseLines(report: ConformanceReport): string[] {
  const causes = report.rootCauses;
  if (causes.length === 0) return [];
  const lines = ['', `### ${causes.length} root cause${causes.length === 1 ? '' : 's'}`, ''];
  for (const c of causes.slice(0, 30)) {
    lines.push(`- **${c.id}** (${c.level}) ${summary(c.summary)} — fails ${c.requirements.join(', ')}${c.reproduce ? ` — reproduce: \`${c.reproduce.command.replace(/`/g, "'")}\`` : ''}`);
  }
  if (causes.length > 30) lines.push(`- … and ${causes.length - 30} more (see conformance.json).`);
  return lines;
}

export function renderMarkdown(report: ConformanceReport): string {
  const s = report.summary;
  const lines = [
    `## Conformance: ${report.verdict.toUpperCase()}`,
    '',
    `**Target** ${text(report.target.name)} (${text(report.target.baseUrl)}) · **spec** ${report.spec.version} · **catalog** ${report.catalog.version} · ${report.run.tests.total} tests, ${report.run.requests} requests in ${(report.run.durationMs / 1000).toFixed(0)} s${report.run.shard ? ` · shard ${report.run.shard.current}/${report.run.shard.total}` : ''}`,
    ...rootCauseLines(report),
    '',
    '| level | passed | failed | waived | not assessed | untestable |',
    '|---|---:|---:|---:|---:|---:|',
    `| must | ${s.must.passed} | ${s.must.failed} | ${s.must.waived} | ${s.must.notAssessed} | ${s.must.untestable} |`,
    `| inferred | ${s.inferred.passed} | ${s.inferred.failed} | ${s.inferred.waived} | ${s.inferred.notAssessed} | ${s.inferred.untestable} |`,
  ];
  const failing = report.requirements.filter((r) => r.level === 'must' && r.verdict === 'failed');
  if (failing.length) {
    lines.push('', `### Failing must requirements (${failing.length})`, '', '| requirement | statement | first failure | root cause |', '|---|---|---|---|');
    for (const r of failing.slice(0, 50)) {
      const first = r.failures[0];
      lines.push(`| ${r.id} | ${cell(r.statement)} | ${first ? `${first.check ? `[${first.check}] ` : ''}${text(first.message.split('\n')[0]!.slice(0, 200))}` : ''} | ${r.rootCauses.join(', ')} |`);
    }
    if (failing.length > 50) lines.push('', `… and ${failing.length - 50} more (see conformance.html).`);
  }
  lines.push(...reproductionLines(report));
  const notAssessed = report.requirements.filter((r) => r.level === 'must' && r.verdict === 'not assessed');
  if (notAssessed.length) {
    const reasons = new Map<string, string[]>();
    for (const r of notAssessed) (reasons.get(r.reason ?? '') ?? reasons.set(r.reason ?? '', []).get(r.reason ?? '')!).push(r.id);
    lines.push('', `### Not assessed must requirements (${notAssessed.length})`, '');
    for (const [reason, ids] of reasons) lines.push(`- ${reason ? text(reason) : 'no reason recorded'}: ${ids.join(', ')}`);
  }
  const waived = report.waivers.filter((w) => w.status !== 'unused');
  if (waived.length) {
    lines.push('', '### Waivers', '');
    for (const w of waived) lines.push(`- ${w.requirement} (${w.status}, expires ${w.expires}): ${text(w.reason)}`);
  }
  lines.push('', 'Full report: `reports/conformance.html`; machine-readable: `reports/conformance.json`.');
  return `${lines.join('\n')}\n`;
}
