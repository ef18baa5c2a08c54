/**
 * The Playwright reporter of a conformance run: collects every test's outcome, tags, skip reason and
 * evidence attachment, and writes the report (docs/design.md §6; docs/vendors.md, "Reading a report"): conformance.json, .html,
 * -junit.xml and .md, with a verdict per requirement and the run's waivers applied. Prints progress
 * (option `progress`) and the verdict. An interrupted run, a failed global setup or a run that executed
 * no selected test gets no verdict. How the run ended goes to the run's outcome file (contract/run-env.ts)
 * for the CLI. Also used by `report merge` over shards' blob reports. Every test error and error line
 * passes the run's redactor before it enters a report; the tests' evidence goes to exchanges.har too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { loadCatalog } from '../../contract/catalog.ts';
import { loadOpenApi, loadOperations } from '../../contract/openapi.ts';
import { ROOT } from '../../contract/paths.ts';
import { readRunEnv, type RunOutcome } from '../../contract/run-env.ts';
import { markTime } from '../../contract/timings.ts';
import { exploreSeeds, runSeed } from '../../contract/run-seed.ts';
import { EVIDENCE_ATTACHMENT, type EvidenceRecord } from '../../contract/exchange.ts';
import type { Redactor } from '../lib/redact.ts';
import { runRedactor, targetProfile } from '../lib/target.ts';
import { renderHar } from '../../contract/report/har.ts';
import { buildReport } from './verdicts.ts';
import { loadWaivers } from '../../contract/report/waivers.ts';
import { writeReports } from '../../contract/report/write.ts';
import { Progress } from './progress.ts';
import { renderFailures, seedLine } from '../../contract/report/console.ts';
import { errorText, withRerunCommand } from './property-failure.ts';
import type { ConformanceReport, TestOutcome, TestStatus } from '../../contract/report/model.ts';
import { COVERAGE_ATTACHMENT, computeCoverage, mergeObserved, type Observed } from '../../contract/report/coverage.ts';

export interface ReporterOptions { outputDir?: string; progress?: boolean }

const RANK: Record<TestStatus, number> = { skipped: 0, passed: 1, interrupted: 2, timedOut: 3, failed: 4 };

export default class ConformanceReporter implements Reporter {
  private readonly outputDir: string;
  private readonly outcomes = new Map<string, TestOutcome>();
  /** Every test result's observed statuses and inputs (./coverage.ts), retries included. */
  private readonly observed: Observed[] = [];
  private startedAt = new Date();
  private config?: FullConfig;
  private progress?: Progress;
  private selected = 0;
  private readonly errors: string[] = [];
  report?: ConformanceReport;
  private redactorOfProfile?: Redactor;

  /** The run's redactor (suites/lib/target.ts runRedactor), kept once the run's profile is known. */
  private get redactor(): Redactor {
    if (this.redactorOfProfile) return this.redactorOfProfile;
    const redactor = runRedactor();
    if (readRunEnv().targetProfile) this.redactorOfProfile = redactor;
    return redactor;
  }

  constructor(private readonly options: ReporterOptions = {}) {
    this.outputDir = resolve(process.cwd(), options.outputDir ?? 'reports');
  }

  onBegin(config: FullConfig, suite: Suite): void {
    markTime('tests.loaded');
    this.config = config;
    this.startedAt = new Date();
    this.selected = suite.allTests().filter((t) => t.parent.project()?.name !== 'setup').length;
    if (this.options.progress) this.progress = new Progress(suite.allTests().length);
  }

  onError(error: TestError): void {
    this.errors.push(this.redactor.text(error.message ?? error.value ?? 'unknown error').replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0]!);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.progress?.tick(test.tags, result.status);
    const evidenceAttachment = result.attachments.find((a) => a.name === EVIDENCE_ATTACHMENT && a.body);
    for (const a of result.attachments) if (a.name === COVERAGE_ATTACHMENT && a.body) this.observed.push(JSON.parse(a.body.toString()) as Observed);
    const evidence = evidenceAttachment ? this.redactor.value(JSON.parse(evidenceAttachment.body!.toString()) as EvidenceRecord) : undefined;
    const skip = [...result.annotations, ...test.annotations].find((a) => a.type === 'skip')?.description;
    const outcome: TestOutcome = {
      id: test.id,
      title: test.titlePath().slice(3).join(' › '),
      file: relative(ROOT, test.location.file),
      line: test.location.line,
      project: test.parent.project()?.name ?? '',
      tags: test.tags,
      status: result.status,
      durationMs: result.duration,
      errors: result.errors.map((e) => this.redactor.text(withRerunCommand(errorText(e), test.title, readRunEnv()))),
      skipReason: result.status === 'skipped' ? this.redactor.text(skip ?? 'skipped') : undefined,
      evidence,
    };
    const previous = this.outcomes.get(test.id);
    if (previous && RANK[previous.status] >= RANK[outcome.status]) {
      if (previous.evidence && outcome.evidence) previous.evidence.requests += outcome.evidence.requests;
      return;
    }
    if (previous?.evidence && outcome.evidence) outcome.evidence.requests += previous.evidence.requests;
    this.outcomes.set(test.id, outcome);
  }

  onEnd(result: FullResult): void {
    markTime('reports.start');
    try {
      this.end(result);
    } finally {
      markTime('reports.end');
    }
  }

  /** Writes the reports and the run's outcome (onEnd). */
  private end(result: FullResult): void {
    this.progress?.end();
    const run = readRunEnv();
    const executed = [...this.outcomes.values()].filter((o) => o.project !== 'setup' && o.status !== 'skipped').length;
    const outcome: RunOutcome = { status: result.status, selected: this.selected, executed, errors: this.errors, reported: false };
    const noVerdict = result.status === 'interrupted' ? 'the run was interrupted'
      : this.errors.length > 0 ? `the run failed before its tests: ${this.errors[0]}`
      : this.selected === 0 ? 'no test matches the selection'
      : executed === 0 ? `none of the ${this.selected} selected tests ran (all skipped)` : undefined;
    if (noVerdict) {
      process.stdout.write(`\nConformance: no verdict — ${noVerdict}.\n`);
      if (run.outcomeFile) writeFileSync(run.outcomeFile, JSON.stringify(outcome));
      return;
    }
    const doc = loadOpenApi();
    const shard = this.config?.shard ?? null;
    let profileName = run.targetName ?? 'target';
    if (run.targetProfile) profileName = targetProfile().name ?? profileName;
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
    this.report = buildReport([...this.outcomes.values()], {
      catalog: loadCatalog(),
      tool: { name: pkg.name, version: pkg.version },
      target: { name: profileName, baseUrl: run.targetUrl ?? '', embedded: run.targetEmbedded },
      spec: { title: doc.info.title, version: doc.info.version },
      startedAt: result.startTime ?? this.startedAt,
      finishedAt: new Date((result.startTime ?? this.startedAt).getTime() + (result.duration ?? Date.now() - this.startedAt.getTime())),
      shard: shard ? { current: shard.current, total: shard.total } : null,
      waivers: run.waivers ? loadWaivers(run.waivers) : [],
      seed: runSeed(run),
      exploreSeeds: exploreSeeds(run),
    });
    this.report.coverage = computeCoverage(loadOperations(), mergeObserved(this.observed));
    let paths: ReturnType<typeof writeReports>;
    try {
      paths = writeReports(this.report, this.outputDir, renderHar([...this.outcomes.values()], { name: pkg.name, version: pkg.version }));
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      outcome.errors.push(`cannot write the reports to ${this.outputDir}: ${err.code ?? err.message}`);
      if (run.outcomeFile) writeFileSync(run.outcomeFile, JSON.stringify(outcome));
      process.stderr.write(`${outcome.errors.at(-1)}\n`);
      return;
    }
    if (run.outcomeFile) writeFileSync(run.outcomeFile, JSON.stringify({ ...outcome, reported: true }));
    const s = this.report.summary;
    process.stdout.write(
      `\nConformance: ${this.report.verdict.toUpperCase()} — must: ${s.must.passed} passed, ${s.must.failed} failed, ${s.must.notAssessed} not assessed, ${s.must.untestable} untestable; ` +
      `${s.must.waived ? `${s.must.waived} waived; ` : ''}inferred: ${s.inferred.passed} passed, ${s.inferred.failed} failed, ${s.inferred.notAssessed} not assessed.\n` +
      `${renderFailures(this.report)}` +
      `${seedLine(this.report)}\n` +
      `Reports: ${relative(process.cwd(), paths.html)}, ${relative(process.cwd(), paths.json)}, ${relative(process.cwd(), paths.junit)}, ${relative(process.cwd(), paths.markdown)}, ${relative(process.cwd(), paths.har)}\n`,
    );
  }

  /** With progress on, this reporter owns the terminal (Playwright then adds no line reporter of its own). */
  printsToStdio(): boolean {
    return this.options.progress === true;
  }
}
