/**
 * `mms-conformance report merge DIR...` and `report diff A B` (issue 5 §4, §6).
 * merge: the blob reports of `run --shard i/n` runs are merged by `playwright merge-reports` and replayed
 * through the conformance reporter, so the merged verdicts equal a single run's.
 * diff: regressions and fixes between two conformance.json files.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';
import { diffReports, formatDiff } from '../suites/reporter/diff.ts';
import type { ConformanceReport } from '../suites/reporter/model.ts';
import { loadWaivers } from '../suites/reporter/waivers.ts';
import { EXIT, UsageError } from './exit-codes.ts';
import { readReport } from './report-file.ts';

function blobsOf(dir: string): string[] {
  const candidates = [dir, join(dir, 'blob')].filter((d) => existsSync(d));
  const blobs = candidates.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.zip')).map((f) => join(d, f)));
  if (blobs.length === 0) throw new UsageError(`${dir} holds no blob report (run with --shard i/n writes <output>/blob/*.zip)`);
  return blobs;
}

/** Merges shard outputs into `output`; resolves to the exit code of the merged verdict. */
export async function mergeReports(dirs: string[], output: string, options: { waivers?: string; failOnIncomplete?: boolean } = {}): Promise<number> {
  const staging = mkdtempSync(join(tmpdir(), 'mms-merge-'));
  for (const dir of dirs) for (const blob of blobsOf(resolve(dir))) copyFileSync(blob, join(staging, `${basename(resolve(dir))}-${basename(blob)}`));
  const env: NodeJS.ProcessEnv = { ...process.env, REPORTS_DIR: output, FORCE_COLOR: '0' };
  const part = dirs.map((d) => join(resolve(d), 'conformance.json')).find((f) => existsSync(f));
  if (part) {
    const target = (JSON.parse(readFileSync(part, 'utf8')) as ConformanceReport).target;
    Object.assign(env, { MMS_TARGET_NAME: target.name, TARGET_URL: target.baseUrl, TARGET_EMBEDDED: target.embedded ? '1' : '0' });
  }
  if (options.waivers) {
    try {
      loadWaivers(resolve(options.waivers));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    env.MMS_WAIVERS = resolve(options.waivers);
  }
  const code = await new Promise<number>((done) => {
    const child = spawn(resolve(ROOT, 'node_modules/.bin/playwright'), ['merge-reports', '--config', 'suites/merge.config.ts', staging], { cwd: ROOT, env, stdio: 'inherit' });
    child.on('exit', (c) => done(c ?? 1));
  });
  const merged = resolve(output, 'conformance.json');
  if (code !== 0 || !existsSync(merged)) throw new UsageError(`playwright merge-reports failed with exit code ${code}`);
  const report = readReport(merged);
  if (report.verdict === 'not conformant') return EXIT.failed;
  return report.verdict === 'incomplete' && options.failOnIncomplete ? EXIT.failed : EXIT.ok;
}

/** Prints the differences from `a` to `b`; resolves to 1 when `b` regressed. */
export function diffCommand(a: string, b: string, json = false): number {
  const diff = diffReports(readReport(a), readReport(b));
  process.stdout.write(json ? `${JSON.stringify(diff, null, 2)}\n` : `${formatDiff(diff)}\n`);
  return diff.regressions.length > 0 ? EXIT.failed : EXIT.ok;
}
