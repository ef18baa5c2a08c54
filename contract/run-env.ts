/**
 * The environment of a conformance run: the one place that names the variables carrying a run from the
 * CLI (cli/run.ts, cli/report.ts) to Playwright's config, global setup, workers and reporters
 * (docs/vendors.md, "The command line"; docs/design.md §5). `runEnvFor` writes them for a child process, `readRunEnv`
 * reads them; no other module reads these variables (tools/test/settings.test.ts checks it). General
 * conventions stay where they are read: CI, FORCE_COLOR, GITHUB_STEP_SUMMARY. The suite's tests read
 * their settings through one Playwright option, `settings` (suites/lib/settings.ts), which
 * suites/playwright.config.ts sets from here.
 */

/** One run's settings, as the variables carry them. Paths are absolute unless said otherwise. */
export interface RunEnv {
  /** REPORTS_DIR: where reports go (relative to the working directory when relative); default `reports`. */
  reportsDir: string;
  /** TARGET_URL: the API base of the target, no trailing slash. */
  targetUrl?: string;
  /** TARGET_PROFILE: the target profile file. */
  targetProfile?: string;
  /** TARGET_EMBEDDED: the target is the embedded mock the CLI started (cli/embedded-target.ts). */
  targetEmbedded: boolean;
  /** MMS_TARGET_NAME: the target's name when no profile is at hand (`report merge`). */
  targetName?: string;
  /** MOCK_SEED: the embedded mock's data seed (`run --seed`), so a rerun line serves the same data. */
  mockSeed?: number;
  /** MOCK_MUTANT: name of a mutant of mock/mutants/catalog.ts the embedded mock applies (the self-test). */
  mockMutant?: string;
  /** MOCK_VARIANT: comma-separated variants of mock/variants/catalog.ts the embedded mock serves (docs/freedoms.md). */
  mockVariant?: string;
  /** MMS_WAIVERS: the waiver file the reporter applies. */
  waivers?: string;
  /** MMS_RUN_DIR: scratch directory of the run (fixture leases), made by the CLI. */
  runDir?: string;
  /** MMS_PROGRESS: the conformance reporter prints progress lines instead of a line per test. */
  progress: boolean;
  /** MMS_GREP: the selection (a regular expression over titles and tags) every selectable project applies. */
  grep?: string;
  /** MMS_BLOB: also write a Playwright blob report named `<blob>.zip` (`run --shard i/n`). */
  blob?: string;
  /** WORKERS: parallel workers. */
  workers?: number;
  /** MMS_OUTCOME: the file where the reporter records how the run ended (see RunOutcome). */
  outcomeFile?: string;
  /** MMS_GEN_BUDGET: generated requests per operation and phase of the generative tests (`run --budget`). */
  genBudget?: number;
  /** MMS_TEST_TIMEOUT: each test's timeout in ms (default 60 000); a request times out at half of it, at most 30 s. */
  testTimeout?: number;
  /** MMS_REPORTER: one of Playwright's own reporters (`list`, `line`, `dot`, `json`, `junit`, `html`) run beside the kit's (`run --reporter`). */
  reporter?: string;
  /** MMS_TIMINGS: a file the run appends its phases' time marks to (contract/timings.ts; `npm run bench`). */
  timingsFile?: string;
  /** FC_SEED: the run's seed (`run --seed`; contract/run-seed.ts; fast-check's convention). */
  seed?: number;
  /** MMS_EXPLORE_SEEDS: fresh seeds each property tries besides the run's (`run --explore-seeds`). */
  exploreSeeds?: number;
  /** FC_RUNS: runs of each property (default: the property's own). */
  runs?: number;
  /** FC_PATH: the path of the shrunk counterexample a failure printed, replayed exactly. */
  path?: string;
  /** FC_REPLAY_PATH: the command sequence a failed model-based run printed, replayed exactly. */
  replayPath?: string;
  /** MMS_GEN_DIGEST_DIR: where the generative tests write each request digest's text (to compare two runs). */
  genDigestDir?: string;
  /** MMS_SCOPE_MATRIX: `sample` runs about a third of the all-scopes matrix (suites/lib/operations.ts). */
  scopeMatrix?: string;
}

export const VARS = {
  reportsDir: 'REPORTS_DIR', targetUrl: 'TARGET_URL', targetProfile: 'TARGET_PROFILE', targetEmbedded: 'TARGET_EMBEDDED',
  targetName: 'MMS_TARGET_NAME', mockSeed: 'MOCK_SEED', mockMutant: 'MOCK_MUTANT', mockVariant: 'MOCK_VARIANT', waivers: 'MMS_WAIVERS', runDir: 'MMS_RUN_DIR',
  progress: 'MMS_PROGRESS', grep: 'MMS_GREP', blob: 'MMS_BLOB', workers: 'WORKERS', outcomeFile: 'MMS_OUTCOME', genBudget: 'MMS_GEN_BUDGET',
  testTimeout: 'MMS_TEST_TIMEOUT', reporter: 'MMS_REPORTER', timingsFile: 'MMS_TIMINGS', seed: 'FC_SEED', exploreSeeds: 'MMS_EXPLORE_SEEDS',
  runs: 'FC_RUNS', path: 'FC_PATH', replayPath: 'FC_REPLAY_PATH', genDigestDir: 'MMS_GEN_DIGEST_DIR', scopeMatrix: 'MMS_SCOPE_MATRIX',
} as const satisfies Record<keyof RunEnv, string>;

/** The run's settings from `env` (default: this process's environment). */
export function readRunEnv(env: NodeJS.ProcessEnv = process.env): RunEnv {
  const v = (k: keyof RunEnv) => env[VARS[k]] || undefined;
  const n = (k: keyof RunEnv) => (v(k) === undefined ? undefined : Number(v(k)));
  return {
    reportsDir: v('reportsDir') ?? 'reports',
    targetUrl: v('targetUrl')?.replace(/\/$/, ''),
    targetProfile: v('targetProfile'),
    targetEmbedded: v('targetEmbedded') === '1',
    targetName: v('targetName'),
    mockSeed: n('mockSeed'),
    mockMutant: v('mockMutant'),
    mockVariant: v('mockVariant'),
    waivers: v('waivers'),
    runDir: v('runDir'),
    progress: v('progress') === '1',
    grep: v('grep'),
    blob: v('blob'),
    workers: n('workers'),
    outcomeFile: v('outcomeFile'),
    genBudget: n('genBudget'),
    testTimeout: n('testTimeout'),
    reporter: v('reporter'),
    timingsFile: v('timingsFile'),
    seed: n('seed'),
    exploreSeeds: n('exploreSeeds'),
    runs: n('runs'),
    path: v('path'),
    replayPath: v('replayPath'),
    genDigestDir: v('genDigestDir'),
    scopeMatrix: v('scopeMatrix'),
  };
}

/** The variables of `run` (unset settings are absent). */
export function runEnvVars(run: Partial<RunEnv>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, name] of Object.entries(VARS) as Array<[keyof RunEnv, string]>) {
    const value = run[key];
    if (value === undefined || value === false) continue;
    out[name] = value === true ? '1' : String(value);
  }
  return out;
}

/** `base` (default: this process's environment) with every run variable replaced by those of `run`. */
export function runEnvFor(run: Partial<RunEnv>, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env = { ...base };
  for (const name of Object.values(VARS)) delete env[name];
  return { ...env, ...runEnvVars(run) };
}

/** How a run ended, as the conformance reporter records it in MMS_OUTCOME for the CLI. */
export interface RunOutcome {
  /** Playwright's status of the run. */
  status: 'passed' | 'failed' | 'timedout' | 'interrupted';
  /** Tests the selection chose, outside the setup project. */
  selected: number;
  /** Of those, tests that ran (not skipped). */
  executed: number;
  /** Errors outside any test (a failed global setup), one line each. */
  errors: string[];
  /** Whether conformance reports were written. */
  reported: boolean;
}
