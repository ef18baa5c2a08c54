/**
 * The Playwright reporter of a conformance run: collects every test's outcome, tags, skip reason and
 * evidence attachment, and writes the report (design.md §6; README "Reports"): conformance.json, .html,
 * -junit.xml and .md, with a verdict per requirement and the waivers of MMS_WAIVERS applied. Prints
 * progress (option `progress`) and the verdict. Also used by `report merge` over shards' blob reports.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { loadCatalog } from '../../contract/catalog.ts';
import { loadOpenApi } from '../../contract/openapi.ts';
import { ROOT } from '../../contract/paths.ts';
import { EVIDENCE_ATTACHMENT, type EvidenceRecord } from '../lib/exchange.ts';
import { buildReport } from './verdicts.ts';
import { loadWaivers } from './waivers.ts';
import { writeReports } from './write.ts';
import { Progress } from './progress.ts';
import { renderFailures } from './console.ts';
import { errorText, withRerunCommand } from './property-failure.ts';
import type { ConformanceReport, TestOutcome, TestStatus } from './model.ts';

export interface ReporterOptions { outputDir?: string; progress?: boolean }

const RANK: Record<TestStatus, number> = { skipped: 0, passed: 1, interrupted: 2, timedOut: 3, failed: 4 };

export default class ConformanceReporter implements Reporter {
  private readonly outputDir: string;
  private readonly outcomes = new Map<string, TestOutcome>();
  private startedAt = new Date();
  private config?: FullConfig;
  private progress?: Progress;
  report?: ConformanceReport;

  constructor(private readonly options: ReporterOptions = {}) {
    this.outputDir = resolve(process.cwd(), options.outputDir ?? 'reports');
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.config = config;
    this.startedAt = new Date();
    if (this.options.progress) this.progress = new Progress(suite.allTests().length);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.progress?.tick(test.tags, result.status);
    const evidenceAttachment = result.attachments.find((a) => a.name === EVIDENCE_ATTACHMENT && a.body);
    const evidence = evidenceAttachment ? (JSON.parse(evidenceAttachment.body!.toString()) as EvidenceRecord) : undefined;
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
      errors: result.errors.map((e) => withRerunCommand(errorText(e), test.title)),
      skipReason: result.status === 'skipped' ? skip ?? 'skipped' : undefined,
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
    this.progress?.end();
    const doc = loadOpenApi();
    const shard = this.config?.shard ?? null;
    let profileName = process.env.MMS_TARGET_NAME ?? 'target';
    try {
      profileName = (JSON.parse(readFileSync(process.env.TARGET_PROFILE ?? '', 'utf8')) as { name?: string }).name ?? profileName;
    } catch {
      /* the profile name is cosmetic; merged shards pass it in MMS_TARGET_NAME */
    }
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
    this.report = buildReport([...this.outcomes.values()], {
      catalog: loadCatalog(),
      tool: { name: pkg.name, version: pkg.version },
      target: { name: profileName, baseUrl: process.env.TARGET_URL ?? '', embedded: process.env.TARGET_EMBEDDED === '1' },
      spec: { title: doc.info.title, version: doc.info.version },
      startedAt: result.startTime ?? this.startedAt,
      finishedAt: new Date((result.startTime ?? this.startedAt).getTime() + (result.duration ?? Date.now() - this.startedAt.getTime())),
      shard: shard ? { current: shard.current, total: shard.total } : null,
      waivers: process.env.MMS_WAIVERS ? loadWaivers(process.env.MMS_WAIVERS) : [],
    });
    const paths = writeReports(this.report, this.outputDir);
    const s = this.report.summary;
    process.stdout.write(
      `\nConformance: ${this.report.verdict.toUpperCase()} — must: ${s.must.passed} passed, ${s.must.failed} failed, ${s.must.notAssessed} not assessed, ${s.must.untestable} untestable; ` +
      `${s.must.waived ? `${s.must.waived} waived; ` : ''}inferred: ${s.inferred.passed} passed, ${s.inferred.failed} failed, ${s.inferred.notAssessed} not assessed.\n` +
      `${renderFailures(this.report)}` +
      `Reports: ${relative(process.cwd(), paths.html)}, ${relative(process.cwd(), paths.json)}, ${relative(process.cwd(), paths.junit)}, ${relative(process.cwd(), paths.markdown)}\n`,
    );
  }

  /** With progress on, this reporter owns the terminal (Playwright then adds no line reporter of its own). */
  printsToStdio(): boolean {
    return this.options.progress === true;
  }
}
