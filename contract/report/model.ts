/**
 * The conformance report (docs/design.md §6): what the reporter collects per test, and the report built from
 * it, organised by the requirement catalog.
 */
import type { CoverageReport } from './coverage.ts';
import type { EvidenceRecord } from '../exchange.ts';

export type TestStatus = 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
export type RequirementVerdict = 'passed' | 'failed' | 'waived' | 'not assessed' | 'untestable';
export type Verdict = 'conformant' | 'not conformant' | 'incomplete';

/** One test's outcome, as collected (one entry per test, its results merged). */
export interface TestOutcome {
  id: string;
  title: string;
  file: string;
  line: number;
  project: string;
  tags: string[];
  status: TestStatus;
  durationMs: number;
  errors: string[];
  skipReason?: string;
  evidence?: EvidenceRecord;
}

export interface Tally { total: number; passed: number; failed: number; waived: number; notAssessed: number; untestable: number }

export interface RequirementResult {
  id: string;
  family: string;
  level: 'must' | 'inferred';
  source: string;
  statement: string;
  /**
   * For a `must`: the sentence(s) of docs/api-v1.md it rests on, verbatim, each with its section
   * (spec/requirements.yaml `quote`); what a vendor reads beside a failure to judge the verdict.
   */
  quote?: Array<{ section: string; text: string }>;
  testable: boolean;
  verdict: RequirementVerdict;
  /** Why it is untestable, not assessed, or waived. */
  reason?: string;
  /** The waiver that covers this failure, when one applies. */
  waiver?: Waiver;
  tests: Array<{ title: string; file: string; line: number; status: TestStatus; durationMs: number }>;
  /** Ids of the root causes (ConformanceReport.rootCauses) that failed it. */
  rootCauses: string[];
  /**
   * Each distinct failure: a failing test's assertion, or one check signature. `evidence` ends with the
   * exchange the failing check or assertion looked at (earlier ones of the test before it); `at` is
   * the JSON pointer (or header name) of the offending field in that exchange.
   */
  failures: Array<{ test: string; message: string; check?: string; at?: string; rootCause: string; evidence: EvidenceRecord['exchanges'] }>;
}

/**
 * One cause of failed requirements (docs/design.md §6, ./root-causes.ts): one violated rule — seen by
 * universal checks in `exchanges` responses across `tests` tests, at every place in `where`, and by the
 * failing assertions that read those responses — or one test's failing assertion. `summary` is the one
 * line the reports print; `operationId`, `status` and `at` are its first place.
 */
export interface RootCause {
  id: string;
  kind: 'check' | 'assertion';
  summary: string;
  /** The violated rule, without where it was seen ("header X-Request-ID absent", "answers 200 instead of 201"). */
  rule?: string;
  /** The requirements this cause failed (a check's own; an assertion's tags). */
  requirements: string[];
  level: 'must' | 'inferred';
  message: string;
  check?: string;
  operationId?: string;
  status?: number;
  at?: string;
  test?: string;
  exchanges: number;
  tests: number;
  /** Where it was seen: operation, status, pointer (array indices left out) or header; most exchanges first, at most 12. */
  where?: Array<{ operationId?: string; status?: number; at?: string; exchanges: number }>;
  /** Reproduce it: the command rerunning the test that showed it first, and the `curl` of its evidence exchange. */
  reproduce?: { command: string; curl?: string };
}

/** A known deviation a vendor declares (docs/vendors.md, "Waivers"): requirement, reason, expiry date (YYYY-MM-DD). */
export interface Waiver { requirement: string; reason: string; expires: string }

/** What became of each declared waiver in a run. */
export interface WaiverUse extends Waiver { status: 'applied' | 'expired' | 'unused' | 'unknown requirement' }

export interface ConformanceReport {
  reportVersion: '1.0';
  tool: { name: string; version: string };
  target: { name: string; baseUrl: string; embedded: boolean };
  spec: { title: string; version: string };
  catalog: { version: string; requirements: number };
  run: {
    startedAt: string;
    finishedAt: string;
    durationMs: number;
    shard: { current: number; total: number } | null;
    /** The run's seed: the same kit version, target state and seed give the same verdicts (contract/run-seed.ts). */
    seed?: number;
    /** Fresh seeds each property tried beside `seed` (`run --explore-seeds K`); a failure names the one that found it. */
    exploreSeeds?: number;
    requests: number;
    /**
     * `requests` by family (that of each test's first requirement tag, or `GEN` for the generative
     * project's tests), most first; a rate budget of
     * 1,000 requests a minute per live key is `requests / 1000` minutes on one key. Absent in reports
     * written before it existed.
     */
    requestsByFamily?: Array<{ family: string; tests: number; requests: number }>;
    tests: { total: number; passed: number; failed: number; skipped: number };
  };
  verdict: Verdict;
  /** What made requirements fail, most consequential first (must before inferred, then by exchanges). */
  rootCauses: RootCause[];
  summary: { must: Tally; inferred: Tally };
  families: Array<{ id: string; title: string; must: Tally; inferred: Tally }>;
  requirements: RequirementResult[];
  checks: Array<{ name: string; requirement: string; failures: number }>;
  waivers: WaiverUse[];
  /** Tags of tests that name no requirement of the catalog. */
  unknownTags: string[];
  /** Per operation, the documented statuses and inputs the run observed and those it never reached (./coverage.ts). */
  coverage?: CoverageReport;
}
