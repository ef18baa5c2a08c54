/**
 * JUnit XML of a conformance report (docs/ci.md, "JUnit and the step summary"): one test case per requirement, one test suite per
 * family. Failed `must` requirements are failures; not assessed, untestable and waived ones are skipped
 * with the reason; a failed `inferred` requirement is skipped too (it never decides certification), with
 * its failure in the system output. Built with junit-report-builder.
 */
import junit from 'junit-report-builder';
import type { ConformanceReport } from './model.ts';

/** The JUnit XML document of a report. */
export function renderJunit(report: ConformanceReport): string {
  const builder = junit.newBuilder();
  for (const family of report.families) {
    const requirements = report.requirements.filter((r) => r.family === family.id);
    if (requirements.length === 0) continue;
    const suite = builder.testSuite().name(`${family.id} ${family.title}`);
    for (const r of requirements) {
      const testCase = suite
        .testCase()
        .className(`conformance.${family.id}`)
        .name(`${r.id} [${r.level}] ${r.statement}`)
        .time(r.tests.reduce((ms, t) => ms + t.durationMs, 0) / 1000);
      const failure = r.failures.map((f) => `${f.test}${f.check ? ` (check ${f.check})` : ''}: ${f.message}`).join('\n\n');
      if (r.verdict === 'failed' && r.level === 'must') testCase.failure(failure.split('\n')[0]!.slice(0, 500)).stacktrace(failure);
      else if (r.verdict === 'failed') testCase.skipped().standardOutput(`inferred requirement failed (does not decide certification):\n${failure}`);
      else if (r.verdict !== 'passed') testCase.skipped().standardOutput(`${r.verdict}: ${r.reason ?? ''}`);
      if (r.tests.length) testCase.standardOutput(r.tests.map((t) => `${t.status} ${t.title} (${t.file}:${t.line})`).join('\n'));
    }
  }
  return builder.build();
}
