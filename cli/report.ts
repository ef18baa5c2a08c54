/**
 * `mms-conformance report merge DIR...` and `report diff A B` (docs/ci.md, "Shards and merge",
 * "Baselines").
 * merge: the blob reports of `run --shard i/n` runs (blob/shard-i-of-n.zip) are merged by
 * `playwright merge-reports` and replayed through the conformance reporter, so the merged verdicts equal
 * a single run's; every shard 1..n must be there. The merged folder gets its own manifest.json (signed
 * with --sign-key, checked by `report verify`, docs/vendors.md "The certification bundle"); the staging
 * copy of the blobs is removed, and Playwright's own lines after the verdict are not printed.
 * diff: regressions and fixes between two conformance.json files.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';
import type { RunEnv } from '../contract/run-env.ts';
import { diffReports, formatDiff } from '../contract/report/diff.ts';
import type { ConformanceReport } from '../contract/report/model.ts';
import { REPORT_FILES } from '../contract/report/write.ts';
import { MANIFEST_FILE, SIGNATURE_FILE } from './bundle-files.ts';
import { EXIT, UsageError, verdictExitCode } from './exit-codes.ts';
import { checkedOutput, checkedWaivers } from './inputs.ts';
import { readReport } from './report-file.ts';
import { runPlaywright } from './playwright.ts';

function blobsOf(dir: string): string[] {
  const candidates = [dir, join(dir, 'blob')].filter((d) => existsSync(d));
  const blobs = candidates.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.zip')).map((f) => join(d, f)));
  if (blobs.length === 0) throw new UsageError(`${dir} holds no blob report (run with --shard i/n writes <output>/blob/*.zip)`);
  return blobs;
}

/** Throws UsageError unless the blobs are shards 1..n of one n, each once (names `shard-i-of-n.zip`). */
export function checkShards(blobs: string[]): void {
  const shards = blobs.map((b) => {
    const m = /^shard-(\d+)-of-(\d+)\.zip$/.exec(basename(b));
    if (!m) throw new UsageError(`${b} is not a shard's blob report (shard-i-of-n.zip, written by run --shard i/n)`);
    return { i: Number(m[1]), n: Number(m[2]) };
  });
  const totals = [...new Set(shards.map((s) => s.n))];
  if (totals.length > 1) throw new UsageError(`the blob reports come from different splits: of ${totals.join(', of ')}`);
  const n = totals[0]!;
  for (let i = 1; i <= n; i++) {
    const count = shards.filter((s) => s.i === i).length;
    if (count === 0) throw new UsageError(`shard ${i} of ${n} is missing`);
    if (count > 1) throw new UsageError(`shard ${i} of ${n} is given ${count} times`);
  }
}

/** `playwright merge-reports`' own progress lines (before and after the verdict): the merge prints only the kit's. */
const MERGE_PROGRESS = /^(merging reports from |extracting: |merging events$|processing test events$|building final report$|finished building report$)/;

/** What `report merge` takes beside the shard folders. */
export interface MergeOptions { waivers?: string; allowIncomplete?: boolean; signKey?: string }

/** Merges shard outputs into `output`; resolves to the exit code of the merged verdict. Throws UsageError, Interrupted. */
export async function mergeReports(dirs: string[], output: string, options: MergeOptions = {}): Promise<number> {
  const { loadSigningKey, writeManifest } = await import('./manifest.ts');
  const signingKey = options.signKey ? loadSigningKey(options.signKey) : undefined;
  const blobs = dirs.flatMap((dir) => blobsOf(resolve(dir)));
  checkShards(blobs);
  const run: Partial<RunEnv> = { reportsDir: checkedOutput(output), waivers: options.waivers ? await checkedWaivers(options.waivers) : undefined };
  const part = dirs.map((d) => join(resolve(d), REPORT_FILES.json)).find((f) => existsSync(f));
  if (part) {
    const target = (JSON.parse(readFileSync(part, 'utf8')) as ConformanceReport).target;
    Object.assign(run, { targetName: target.name, targetUrl: target.baseUrl, targetEmbedded: target.embedded });
  }
  for (const file of [MANIFEST_FILE, SIGNATURE_FILE]) rmSync(resolve(run.reportsDir!, file), { force: true });
  const staging = mkdtempSync(join(tmpdir(), 'mms-merge-'));
  try {
    for (const blob of blobs) copyFileSync(blob, join(staging, basename(blob)));
    await runPlaywright(['merge-reports', '--config', resolve(ROOT, 'suites/merge.config.ts'), staging], run, 'the merged blob reports hold no test', {}, undefined, MERGE_PROGRESS);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const report = readReport(resolve(run.reportsDir!, REPORT_FILES.json));
  writeManifest(run.reportsDir!, report, undefined, signingKey, { shards: shardHashes(blobs) });
  return verdictExitCode(report.verdict, options.allowIncomplete);
}

/** The SHA-256 of each shard's blob report, by file name: which parts a merged manifest stands on. */
function shardHashes(blobs: string[]): Record<string, string> {
  return Object.fromEntries(blobs.map((b) => [basename(b), createHash('sha256').update(readFileSync(b)).digest('hex')]).sort(([a], [b]) => a!.localeCompare(b!)));
}

/** Prints the differences from `a` to `b`; resolves to 1 when a `must` requirement of `b` regressed. */
export function diffCommand(a: string, b: string, json = false): number {
  const diff = diffReports(readReport(a), readReport(b));
  process.stdout.write(json ? `${JSON.stringify(diff, null, 2)}\n` : `${formatDiff(diff)}\n`);
  return diff.regressions.length > 0 ? EXIT.failed : EXIT.ok;
}
