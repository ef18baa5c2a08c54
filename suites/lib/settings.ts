/**
 * The run's settings as the suite's tests read them (docs/design.md §4): one Playwright option,
 * `settings`, set once by suites/playwright.config.ts from the run's environment (contract/run-env.ts,
 * the one reader of the kit's variables). A test takes it as the `settings` fixture
 * (suites/fixtures.ts); code a test calls reads the value that worker fixture installed (`runSettings`).
 */
import type { RunEnv } from '../../contract/run-env.ts';
import { DEFAULT_SEED, exploreSeeds, runSeed } from '../../contract/run-seed.ts';

/** What a test may read of its run. */
export interface RunSettings {
  /** The run's seed (`run --seed`; contract/run-seed.ts). */
  seed: number;
  /** Fresh seeds each property tries besides the run's (`run --explore-seeds`). */
  exploreSeeds: number;
  /** Runs of each property (FC_RUNS), when given. */
  runs?: number;
  /** fast-check's path of a shrunk counterexample to replay (FC_PATH). */
  path?: string;
  /** The command sequence of a failed model-based run to replay (FC_REPLAY_PATH). */
  replayPath?: string;
  /** Generated requests per operation and phase (`run --budget`), when given. */
  genBudget?: number;
  /** Each test's timeout, in ms (`run --timeout`; default 60 000). */
  testTimeout: number;
  /** Where the generative tests write each request digest's text (to compare two runs). */
  genDigestDir?: string;
  /** `sample`: about a third of the all-scopes matrix (suites/lib/operations.ts). */
  scopeMatrix?: string;
  /** The run's scratch folder (fixture leases, suites/lib/lease.ts), made by the CLI. */
  runDir?: string;
}

/** The settings of a run that set none (a Playwright run of the suite's files outside its config): the defaults. */
export const DEFAULT_SETTINGS: RunSettings = { seed: DEFAULT_SEED, exploreSeeds: 0, testTimeout: 60_000 };

/** The settings of a run's environment. Throws when the seed is not an integer. */
export function settingsOf(run: RunEnv): RunSettings {
  return {
    seed: runSeed(run), exploreSeeds: exploreSeeds(run), runs: run.runs, path: run.path, replayPath: run.replayPath,
    genBudget: run.genBudget, testTimeout: run.testTimeout ?? 60_000, genDigestDir: run.genDigestDir, scopeMatrix: run.scopeMatrix, runDir: run.runDir,
  };
}

let installed: RunSettings | undefined;

/** Makes `settings` the worker's (suites/fixtures.ts does, from the `settings` option, before any test). */
export function installSettings(settings: RunSettings): void {
  installed = settings;
}

/** The worker's settings (the `settings` option its fixture installed). Throws when none was installed. */
export function runSettings(): RunSettings {
  if (!installed) throw new Error('no run settings installed: run the suite through its Playwright config (mms-conformance run)');
  return installed;
}
