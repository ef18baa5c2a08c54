/**
 * Builds the conformance report from test outcomes and the catalog (docs/design.md §6):
 * - a requirement fails when a test tagged with it failed (its own assertions) or a universal check
 *   attributed to it failed — a check failure fails only the check's requirement, never the tags of
 *   the test that made the request;
 * - every failure belongs to a root cause (`rootCauses`, ./root-causes.ts): one violated rule, wherever
 *   checks and assertions saw it, or one failing test; each failed requirement names its root causes;
 *   passes when a tagged test passed; is not assessed when its tests were all skipped (or it has none);
 *   is untestable when the catalog says so;
 * - a failed requirement covered by an unexpired waiver is **waived** (docs/vendors.md, "Waivers"); an expired waiver is
 *   ignored;
 * - the run is **conformant** when every testable `must` requirement passed, **not conformant** when one
 *   failed (unwaived), and **incomplete** otherwise (not assessed or waived). `inferred` requirements never
 *   change the verdict.
 */
import { quoteParts, type Catalog } from '../../contract/catalog.ts';
import { checkSignature, type CheckFailure, type EvidenceRecord } from '../../contract/exchange.ts';
import type { ConformanceReport, RequirementResult, RootCause, Tally, TestOutcome, Verdict, Waiver, WaiverUse } from '../../contract/report/model.ts';
import { requestFamilyOf, tallyRequests } from './request-tally.ts';
import { rootCausesOf } from './root-causes.ts';

const emptyTally = (): Tally => ({ total: 0, passed: 0, failed: 0, waived: 0, notAssessed: 0, untestable: 0 });

function add(t: Tally, r: RequirementResult): void {
  t.total++;
  if (r.verdict === 'passed') t.passed++;
  else if (r.verdict === 'failed') t.failed++;
  else if (r.verdict === 'waived') t.waived++;
  else if (r.verdict === 'untestable') t.untestable++;
  else t.notAssessed++;
}

/** Whether a waiver still holds on `day` (YYYY-MM-DD): it expires at the end of its expiry date. */
export function waiverActive(waiver: Waiver, day: string): boolean {
  return waiver.expires >= day;
}

/** The requirement ids a test names (tags `@FAMILY-NNN`). */
export function requirementTags(tags: string[]): string[] {
  return tags.map((t) => t.replace(/^@/, '')).filter((t) => /^[A-Z]+-\d{3}$/.test(t));
}

/**
 * The requirements a failed test's assertion failed: those of its tags that the first line of its error
 * (or, for a property, the assertion line fast-check reports under its counterexample) names as
 * `[FAMILY-NNN, …]` (suites/lib/proves.ts), else all its tags. A test that proves several
 * requirements (a model-based property) so fails only the one whose assertion broke; the others it did
 * not reach stay not assessed unless another test proves them (docs/design.md §6). An assertion that
 * names only requirements the test is not tagged with (a stale command's 409 inside the version model
 * of PARTS-002 is PARTS-016's) fails those it names, never the test's own tags: each assertion belongs
 * to the requirement it proves.
 */
export function failedRequirementsOf(ids: string[], message: string): string[] {
  const lines = message.split('\n');
  // The first line, else the assertion fast-check reports under a counterexample ("Got error: …", "Caused by: …").
  const candidates = [lines.find((l) => l.trim()) ?? '', ...lines.filter((l) => /^\s*(Got error|Caused by): /.test(l))];
  const ID_LIST = /\[([A-Z]+-\d{3}(?:, [A-Z]+-\d{3})*)\]/;
  const named = ID_LIST.exec(candidates.find((l) => ID_LIST.test(l)) ?? '')?.[1]?.split(', ') ?? [];
  const own = ids.filter((id) => named.includes(id));
  return own.length ? own : named.length ? named : ids;
}

/**
 * The failed requirements `failed` of a test tagged `tags`, never a `must` one when the test proves no
 * `must` requirement (docs/vendors.md, "Levels"): an assertion of an inferred test that names a stated
 * requirement fails the test's own (inferred) tags instead, so a test that exercises what the description
 * does not show cannot decide certification, whatever its assertions name.
 */
export function withinLevel(failed: string[], tags: string[], catalog: Pick<Catalog, 'byId'>): string[] {
  if (tags.some((id) => catalog.byId.get(id)?.level === 'must')) return failed;
  const kept = failed.filter((id) => catalog.byId.get(id)?.level !== 'must');
  return kept.length ? kept : tags;
}

export interface ReportContext {
  catalog: Catalog;
  tool: ConformanceReport['tool'];
  target: ConformanceReport['target'];
  spec: ConformanceReport['spec'];
  startedAt: Date;
  finishedAt: Date;
  shard: ConformanceReport['run']['shard'];
  waivers?: Waiver[];
  /** The run's seed (contract/run-seed.ts) and the extra seeds each property explored (`run --explore-seeds`). */
  seed?: number;
  exploreSeeds?: number;
}

export function buildReport(tests: TestOutcome[], ctx: ReportContext): ConformanceReport {
  const byRequirement = new Map<string, TestOutcome[]>();
  const unknown = new Set<string>();
  const checkCounts = new Map<string, { requirement: string; failures: number }>();
  for (const t of tests) {
    for (const id of requirementTags(t.tags)) {
      if (!ctx.catalog.byId.has(id)) unknown.add(id);
      else (byRequirement.get(id) ?? byRequirement.set(id, []).get(id)!).push(t);
    }
    for (const f of t.evidence?.checkFailures ?? []) {
      const c = checkCounts.get(f.check) ?? { requirement: f.requirement, failures: 0 };
      c.failures++;
      checkCounts.set(f.check, c);
    }
  }
  const causes = rootCausesOf(tests, ctx.catalog, (t, message) => {
    const tags = requirementTags(t.tags).filter((id) => ctx.catalog.byId.has(id));
    const failed = withinLevel(failedRequirementsOf(tags, message).filter((id) => ctx.catalog.byId.has(id)), tags, ctx.catalog);
    return failed.length ? failed : tags;
  });
  const failuresOf = new Map<string, RequirementResult['failures']>();
  for (const c of causes) {
    for (const [id, f] of c.failures) (failuresOf.get(id) ?? failuresOf.set(id, []).get(id)!).push(f);
  }

  const requirements: RequirementResult[] = ctx.catalog.requirements.map((req) => {
    const tagged = byRequirement.get(req.id) ?? [];
    const failures = (failuresOf.get(req.id) ?? []).slice(0, 12);
    const result: RequirementResult = {
      id: req.id, family: req.family, level: req.level, source: req.source, statement: req.statement,
      ...(req.quote?.length ? { quote: req.quote.map((q) => quoteParts(req, q)) } : {}),
      testable: req.testable,
      verdict: 'not assessed',
      tests: tagged.map((t) => ({ title: t.title, file: t.file, line: t.line, status: t.status, durationMs: t.durationMs })),
      rootCauses: [...new Set(failures.map((f) => f.rootCause))],
      failures,
    };
    if (!req.testable) {
      result.verdict = 'untestable';
      result.reason = req.reason;
    } else if (failures.length > 0) result.verdict = 'failed';
    else if (tagged.some((t) => t.status === 'passed')) result.verdict = 'passed';
    else {
      const reasons = [...new Set(tagged.map((t) => t.skipReason).filter(Boolean))];
      result.reason = reasons.length ? reasons.join('; ') : 'no test of this run proves it';
    }
    return result;
  });
  const rootCauses: RootCause[] = causes.map(({ failures: _f, ...c }) => c);

  const today = ctx.finishedAt.toISOString().slice(0, 10);
  const waivers: WaiverUse[] = (ctx.waivers ?? []).map((w) => {
    const req = requirements.find((r) => r.id === w.requirement);
    if (!req) return { ...w, status: 'unknown requirement' };
    if (!waiverActive(w, today)) return { ...w, status: 'expired' };
    if (req.verdict !== 'failed') return { ...w, status: 'unused' };
    req.verdict = 'waived';
    req.waiver = { requirement: w.requirement, reason: w.reason, expires: w.expires };
    req.reason = `waived until ${w.expires}: ${w.reason}`;
    return { ...w, status: 'applied' };
  });
  const summary = { must: emptyTally(), inferred: emptyTally() };
  const families = Object.entries(ctx.catalog.families).map(([id, title]) => ({ id, title, must: emptyTally(), inferred: emptyTally() }));
  const familyById = new Map(families.map((f) => [f.id, f]));
  for (const r of requirements) {
    add(summary[r.level], r);
    add(familyById.get(r.family)![r.level], r);
  }
  const verdict: Verdict = summary.must.failed > 0 ? 'not conformant' : summary.must.notAssessed + summary.must.waived > 0 ? 'incomplete' : 'conformant';
  const count = (s: (t: TestOutcome) => boolean) => tests.filter(s).length;
  const failedStatus = (t: TestOutcome) => t.status === 'failed' || t.status === 'timedOut' || t.status === 'interrupted';
  return {
    reportVersion: '1.0',
    tool: ctx.tool,
    target: ctx.target,
    spec: ctx.spec,
    catalog: { version: ctx.catalog.version, requirements: ctx.catalog.requirements.length },
    run: {
      startedAt: ctx.startedAt.toISOString(),
      finishedAt: ctx.finishedAt.toISOString(),
      durationMs: ctx.finishedAt.getTime() - ctx.startedAt.getTime(),
      shard: ctx.shard,
      ...(ctx.seed !== undefined ? { seed: ctx.seed } : {}),
      ...(ctx.exploreSeeds ? { exploreSeeds: ctx.exploreSeeds } : {}),
      requests: tests.reduce((n, t) => n + (t.evidence?.requests ?? 0), 0),
      requestsByFamily: tallyRequests(tests, (t) => requestFamilyOf(t.tags), (t) => t.evidence?.requests ?? 0, 'family'),
      tests: {
        total: tests.length,
        passed: count((t) => t.status === 'passed'),
        failed: count(failedStatus),
        skipped: count((t) => t.status === 'skipped'),
      },
    },
    verdict,
    rootCauses,
    summary,
    families,
    requirements,
    checks: [...checkCounts.entries()].map(([name, c]) => ({ name, requirement: c.requirement, failures: c.failures })),
    unknownTags: [...unknown].sort(),
    waivers,
  };
}
