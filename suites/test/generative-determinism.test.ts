/**
 * The generative project is deterministic for a fixed seed (docs/generative.md, "Budget and
 * determinism"): two runs against fresh embedded mocks with the same seed — each beside the kits that
 * write the records the generative tests read and write (work orders, expenses, parts sections, work
 * requests, meters, readings), all in parallel workers, the two runs at the same time — print the same
 * request digest for every generative test that prints one (each positive test and the stateful run);
 * another seed prints other digests.
 *
 * The runs go through the CLI (`mms-conformance run --reporter json`); the digests are read from the
 * tests' printed lines in Playwright's JSON report. On a difference, the two digests' texts
 * (MMS_GEN_DIGEST_DIR) are compared line by line in the failure message.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test, expect } from '@playwright/test';
import { ROOT } from '../../contract/paths.ts';

/** The generative project and the kits of the families whose records it shares. */
const BESIDE_THE_KITS = '@GEN\\b|@(WO|WOC|EXP|WR|METER|READ|PARTS)-';

interface Run { code: number; log: string; digests: Map<string, string>; textDir: string }

interface JsonSuite { title: string; suites?: JsonSuite[]; specs?: Array<{ title: string; tests: Array<{ results: Array<{ stdout: Array<{ text?: string }> }> }> }> }

/** Every printed `digest <hex>` of the JSON report, by test title (a test prints at most one). */
function digestsOf(report: { suites: JsonSuite[] }): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (s: JsonSuite, prefix: string) => {
    const title = prefix ? `${prefix} › ${s.title}` : s.title;
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        for (const r of t.results) {
          for (const chunk of r.stdout) {
            const m = /digest ([0-9a-f]{16})/.exec(chunk.text ?? '');
            if (m) out.set(`${title} › ${spec.title}`, m[1]!);
          }
        }
      }
    }
    for (const child of s.suites ?? []) walk(child, title);
  };
  for (const s of report.suites) walk(s, '');
  return out;
}

/** One CLI run against a fresh embedded mock, into a temporary folder (listed in `dirs`, removed after the test). */
function cliRun(grep: string, env: Record<string, string>, dirs: string[]): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'mms-gen-determinism-'));
  dirs.push(dir);
  const textDir = join(dir, 'digests');
  mkdirSync(textDir);
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'bin/mms-conformance.mjs'), 'run', '--output', dir, '--grep', grep, '--reporter', 'json', '--workers', '3', '--strict', '--allow-incomplete'], {
      cwd: ROOT,
      env: { ...process.env, CI: '1', MMS_GEN_DIGEST_DIR: textDir, ...env },
    });
    let log = '';
    child.stdout.on('data', (d) => (log += d));
    child.stderr.on('data', (d) => (log += d));
    child.on('exit', (code) => {
      const file = join(dir, 'playwright-json.json');
      const digests = existsSync(file) ? digestsOf(JSON.parse(readFileSync(file, 'utf8'))) : new Map<string, string>();
      done({ code: code ?? 1, log, digests, textDir });
    });
  });
}

/** The first lines where two digests' texts differ (for the failure message). */
function textDiff(a: Run, b: Run, digestA: string, digestB: string): string {
  const read = (r: Run, d: string) => {
    const file = join(r.textDir, `${d}.txt`);
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  };
  const [x, y] = [read(a, digestA), read(b, digestB)];
  const i = x.findIndex((line, k) => line !== y[k]);
  return i < 0 ? '(texts not found)' : `line ${i + 1}:\n  first:  ${x[i]?.slice(0, 300)}\n  second: ${y[i]?.slice(0, 300)}`;
}

const dirs: string[] = [];
test.afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test('generative runs with one seed send the same requests beside the kits writing the same records; another seed sends others', async () => {
  test.setTimeout(600_000);
  const seed = { FC_SEED: '20240917' };
  const [first, second] = await Promise.all([cliRun(BESIDE_THE_KITS, seed, dirs), cliRun(BESIDE_THE_KITS, seed, dirs)]);
  for (const r of [first, second]) expect(r.code, `the run passes:\n${r.log.slice(-3000)}`).toBe(0);
  // Every positive test (55 operations, some twice) and the stateful run print one.
  expect(first.digests.size, 'digests printed').toBeGreaterThan(60);
  expect([...second.digests.keys()].sort()).toEqual([...first.digests.keys()].sort());
  const differing = [...first.digests].filter(([title, d]) => second.digests.get(title) !== d);
  const explained = differing.map(([title, d]) => `${title}: ${d} ≠ ${second.digests.get(title)}\n${textDiff(first, second, d, second.digests.get(title)!)}`);
  expect(explained, 'every digest is the same in both runs').toEqual([]);

  // Another seed: other requests (the stateful run and one positive test with generated bodies suffice;
  // what the description states of updateMeter's body leaves little to generate).
  const other = await cliRun('GEN-005|updateMeter: generated valid requests \\(with inferred', { FC_SEED: '7' }, dirs);
  expect(other.code, `the run passes:\n${other.log.slice(-3000)}`).toBe(0);
  expect(other.digests.size, 'the stateful run and the updateMeter test printed digests').toBe(2);
  for (const [title, d] of other.digests) expect(d, `${title}: another seed, another digest`).not.toBe(first.digests.get(title));
});
