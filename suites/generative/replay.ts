/**
 * Reproducing a generative failure (docs/generative.md): the budget, the seed and fast-check's
 * parameters (FC_SEED, FC_PATH: replay exactly the shrunk case a failure printed), and the curl
 * commands of the failing request or the failing sequence, the key written `$MMS_KEY_LIVE`, never its value.
 * No Playwright import: the unit tests replay a forced failure with these very functions.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type fc from 'fast-check';

/** Default seed of the generative phases (FC_SEED, `run --seed`, overrides): the run's seed, contract/run-seed.ts. */
export { DEFAULT_SEED } from '../../contract/run-seed.ts';
/**
 * Default generated requests per operation in the positive and negative phases: 2 (3 before; every
 * operation's statuses and one malformed input per operation are also the conformance kits'), about 420
 * requests of the generative project on the mock.
 */
export const DEFAULT_BUDGET = 2;
/**
 * Default budget of the stateful run (3 × budget sequences of up to 7 × budget commands): 3, as its
 * modelled mutants need (docs/generative.md: at budget 2 it killed fewer).
 */
export const DEFAULT_STATEFUL_BUDGET = 3;

/**
 * The run settings the generative tests read (suites/lib/settings.ts RunSettings, passed in: this module
 * imports no Playwright).
 */
export interface GenSettings { genBudget?: number; runs?: number; path?: string; replayPath?: string; testTimeout: number; genDigestDir?: string }

/** The budget given (`run --budget`, MMS_GEN_BUDGET, else FC_RUNS), if any; throws on a value that is not a positive integer. */
function givenBudget(settings: GenSettings): number | undefined {
  const n = settings.genBudget ?? settings.runs;
  if (n === undefined) return undefined;
  if (!Number.isInteger(n) || n < 1) throw new Error(`MMS_GEN_BUDGET must be a positive integer, got ${n}`);
  return n;
}

/**
 * Generated requests per operation and phase: MMS_GEN_BUDGET (a positive integer), else FC_RUNS, else
 * DEFAULT_BUDGET. Throws on a value that is not a positive integer.
 */
export function genBudget(settings: GenSettings): number {
  return givenBudget(settings) ?? DEFAULT_BUDGET;
}

/** The stateful run's budget: the one given (as `genBudget`), else DEFAULT_STATEFUL_BUDGET. */
export function statefulBudget(settings: GenSettings): number {
  return givenBudget(settings) ?? DEFAULT_STATEFUL_BUDGET;
}

/**
 * fast-check parameters of a generative property: the seed, `genBudget()` runs, the first failure
 * shrunk (fast-check's `endOnFailure` would skip shrinking) with its error in the report; FC_PATH
 * (printed by a failure as `path`) replays exactly that shrunk case. Runs and shrinking stop after
 * `timeLimitMs` (default: half the test's timeout, contract/run-env.ts testTimeout): a failure found by
 * then is reported with the smallest counterexample reached, before the test's timeout would lose it.
 */
export function genParameters<T>(settings: GenSettings, seed: number, timeLimitMs = Math.floor(settings.testTimeout / 2)): fc.Parameters<T> {
  const path = settings.path;
  return { seed, numRuns: genBudget(settings), includeErrorInReport: true, interruptAfterTimeLimit: timeLimitMs, ...(path ? { path } : {}) };
}

/**
 * Constraints of a command sequence (`fc.commands`): FC_REPLAY_PATH, the `replayPath` a failed
 * model-based run prints in its counterexample, replays with FC_SEED and FC_PATH exactly the shrunk
 * sequence (fast-check needs all three for commands).
 */
export function commandsReplay(settings: GenSettings): { replayPath?: string } {
  return settings.replayPath ? { replayPath: settings.replayPath } : {};
}

/** A request as sent: method, path (ids filled in), query (strings or repeated strings), JSON body. */
export interface GenRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  json?: unknown;
  /** A non-JSON body from the recipe (uploads), sent as is. */
  raw?: { body?: string | Buffer; headers?: Record<string, string> };
  /** How the digest writes the path when the target chose it (a read of the first listed record). */
  digestPath?: string;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command reproducing `r` against `baseUrl`; the key is written `$MMS_KEY_LIVE`, never its value. */
export function curlOf(baseUrl: string, r: GenRequest): string {
  const url = new URL(`${baseUrl}${r.path}`);
  for (const [k, v] of Object.entries(r.query)) for (const item of ([] as string[]).concat(v)) url.searchParams.append(k, item);
  const parts = ['curl -sS -i', '-X', r.method, shellQuote(url.toString()), '-H', '"Authorization: Bearer $MMS_KEY_LIVE"'];
  if (r.json !== undefined) parts.push('-H', shellQuote('Content-Type: application/json'), '--data-raw', shellQuote(JSON.stringify(r.json)));
  else if (r.raw?.body !== undefined) parts.push('--data-binary', '@<the recipe\'s body>');
  return parts.join(' ');
}

/** Runs `body`; a thrown error is rethrown with the seed and the curl command of `r` appended. */
export async function reproducible<T>(seed: number, baseUrl: string, r: GenRequest, what: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(`${message}\n── ${what}; seed=${seed}\n── reproduce: ${curlOf(baseUrl, r)}`, { cause: e });
  }
}

/**
 * The error of a failed sequence: the failure's message, then the seed and one numbered curl command per
 * request the sequence sent (fast-check reports the shrunk sequence's error, so these are the shrunk
 * sequence's requests).
 */
export function sequenceFailure(error: unknown, seed: number, baseUrl: string, sent: GenRequest[]): Error {
  const message = error instanceof Error ? error.message : String(error);
  const curls = sent.map((x, i) => `  ${i + 1}. ${curlOf(baseUrl, x)}`).join('\n');
  return new Error(`${message}\n── sequence of ${sent.length} requests (seed=${seed}):\n${curls}`, { cause: error });
}

/**
 * A digest of requests as sent (method, path, query, body): what the run chose, not what the target
 * issued. Values the target issues are numbered in order of first appearance — record ids (`wo_…`,
 * integer path ids → `#1`) and 64-hex versions (`aggregateVersion` → `v1`) — so the same choices give the
 * same digest whatever ids and versions the target hands out; run-unique names (`CT … 0x…`) are left
 * out, and a path the target chose by listing is written as the link that chose it (`digestPath`).
 * `digestDir` (MMS_GEN_DIGEST_DIR): also write each digest's text to `<dir>/<digest>.txt` (to compare two runs).
 */
export function requestDigest(requests: GenRequest[], digestDir?: string): string {
  const ids = new Map<string, string>();
  const versions = new Map<string, string>();
  // Integer ids in paths (custom-field definitions) are numbered too.
  const text = requests.map((r) => JSON.stringify([r.method, (r.digestPath ?? r.path).replace(/\/(\d+)(?=\/|$)/g, '/int_$1xxxxxxxx'), r.query, r.json ?? null])).join('\n')
    .replace(/\b[0-9a-f]{64}\b/g, (v) => versions.get(v) ?? (versions.set(v, `v${versions.size + 1}`), versions.get(v)!))
    .replace(/\b[a-z]{2,5}_[0-9a-z]{8,}\b/g, (id) => ids.get(id) ?? (ids.set(id, `#${ids.size + 1}`), ids.get(id)!))
    .replace(/\d+x[0-9a-z]+x[0-9a-z]+/g, 'uid');
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 16);
  if (digestDir) writeFileSync(join(digestDir, `${digest}.txt`), `${text}\n`);
  return digest;
}
