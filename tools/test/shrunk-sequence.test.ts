/**
 * The shrunk command sequence a stateful failure prints (suites/generative/stateful.spec.ts, GEN-005;
 * docs/generative.md, "Reproducing a failure") is the one that failed. The stateful run against the
 * embedded mock with the mutant `parts-version-unchanged` (mock/mutants/families/parts.ts, killed by
 * GEN-005) fails; its report's failure must show:
 *
 * - every printed command ran and sent the printed request of the same rank: as many commands as
 *   requests, and command i names the operation whose method and path template request i has. This
 *   fails when a command describes a choice of another run: fast-check runs the same command objects
 *   again while it shrinks, and without a copy per run a follow command prints what a later, passing
 *   attempt chose (it did: `createMeter (nothing to follow)` for a sent `GET …/parts`);
 * - no command after the failing one: the failed assertion names the last command's operation and the
 *   last request's method and path;
 * - the sequence replays: the printed rerun line (FC_SEED, FC_PATH, FC_REPLAY_PATH, MOCK_MUTANT),
 *   pasted into a shell, runs that one sequence (`after 1 tests`, nothing shrunk) and fails with the same
 *   counterexample, the same assertion and the same requests. That the sequence holds no command the
 *   failure does not need is fast-check's shrinking; what is checked here is that the printed sequence
 *   is the shrunk one it reached, not another.
 * The one stand-in: `npx` is a shell function running this repository's CLI (as tools/test/rerun-line.test.ts).
 */
import { test, expect } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';
import { loadOperations } from '../../contract/openapi.ts';
import type { ConformanceReport } from '../../contract/report/model.ts';
import { cliRun } from './run-cli.ts';

test.setTimeout(120_000);
const TITLE = "sequences following the spec's links agree with the model of the described rules";
const MUTANT = 'parts-version-unchanged';
const dir = mkdtempSync(join(tmpdir(), 'shrunk-sequence-'));

/** What a stateful failure prints: its commands, its requests, the failed assertion, the rerun line. */
interface Printed { message: string; commands: string[]; requests: Array<{ method: string; path: string }>; error: string; rerun: string }

/** Splits a printed counterexample `[a(…),b(…)]` at its top-level commas (the replay path comment dropped). */
function commandsOf(counterexample: string): string[] {
  const inner = counterexample.replace(/ \/\*replayPath=.*\*\/\]$/, ']').replace(/^\[|\]$/g, '');
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of inner) {
    if (c === ',' && depth === 0) { out.push(current); current = ''; continue; }
    if (c === '(') depth++;
    if (c === ')') depth--;
    current += c;
  }
  return current ? [...out, current] : out;
}

/** The GEN-005 failure of a report, parsed. */
function printedIn(reportFile: string): Printed {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as ConformanceReport;
  const message = report.requirements.find((r) => r.id === 'GEN-005')?.failures.find((f) => f.test.includes(TITLE))?.message;
  expect(message, `GEN-005 fails against ${MUTANT}`).toBeDefined();
  const counterexample = /^Counterexample: (.*)$/m.exec(message!)?.[1];
  expect(counterexample, message).toBeDefined();
  const requests = [...message!.matchAll(/^ {2}\d+\. curl -sS -i -X (\w+) 'http:\/\/[^/]+\/v1([^'?]*)/gm)].map((m) => ({ method: m[1]!, path: m[2]! }));
  return {
    message: message!,
    commands: commandsOf(counterexample!),
    requests,
    error: /^Got error: (.*)$/m.exec(message!)?.[1] ?? '',
    rerun: /^Rerun: (.*)$/m.exec(message!)?.[1] ?? '',
  };
}

/** The operation id a printed command names: `op(#…)`, `from →link→ op:kind(#…)`, `op (nothing to follow)(#…)`. */
const operationOf = (command: string) => /^(?:.*→ )?(\w+)(?::[\w-]+)?(?: \(nothing to follow\))?\(/.exec(command)?.[1];
/** Whether a request path (relative to /v1) fits an operation's path template. */
const fits = (template: string, path: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path);
/**
 * A printed failure's requests and assertion without what differs from run to run: ports, idempotency
 * keys, request ids; record ids (the mock's depend on the clock) numbered in order of first appearance.
 */
function stable(p: Printed): string {
  const ids = new Map<string, string>();
  return `${JSON.stringify(p.requests)}\n${p.error}`.replace(/127\.0\.0\.1:\d+/g, 'HOST').replace(/gen-[0-9a-z]+/g, 'gen-KEY').replace(/req_[0-9a-z]+/gi, 'req_ID')
    .replace(/\b[a-z]{2,5}_[0-9a-z]{8,}\b/g, (id) => ids.get(id) ?? (ids.set(id, `#${ids.size + 1}`), ids.get(id)!));
}

test('the printed shrunk sequence is the one that failed: each command sent its printed request, the last one failed, the rerun line replays it', async () => {
  const first = await cliRun(['run', '--grep', TITLE, '--workers', '1', '--output', join(dir, 'first')], { MOCK_MUTANT: MUTANT });
  expect(first.code, first.output).toBe(1);
  const printed = printedIn(join(dir, 'first', 'conformance.json'));
  expect(printed.message, 'the failure was shrunk').toMatch(/^Shrunk [1-9]\d* time\(s\)$/m);
  expect(printed.commands.length, printed.message).toBeGreaterThan(0);
  expect(printed.requests.length, `one request per printed command — ${printed.message}`).toBe(printed.commands.length);

  const operations = new Map(loadOperations().map((o) => [o.operationId as string, o]));
  printed.commands.forEach((command, i) => {
    const op = operations.get(operationOf(command) ?? '');
    expect(op, `command ${i + 1} names a spec operation: ${command}`).toBeDefined();
    const sent = printed.requests[i]!;
    expect(`${sent.method} ${fits(op!.path, sent.path) ? op!.path : sent.path}`, `command ${i + 1} (${command}) sent request ${i + 1}`).toBe(`${op!.method.toUpperCase()} ${op!.path}`);
  });
  const last = printed.requests.at(-1)!;
  expect(printed.error, 'the failed assertion is the last command\'s').toContain(`— ${operationOf(printed.commands.at(-1)!)} ${last.method} ${last.path} answered `);

  expect(printed.rerun).toContain(`MOCK_MUTANT=${MUTANT}`);
  expect(printed.rerun).toMatch(/FC_REPLAY_PATH=\S+/);
  const shellDir = mkdtempSync(join(dir, 'shell-'));
  const pasted = spawnSync('bash', ['--noprofile', '--norc', '-c', `npx() { [ "$1" = mms-conformance ] && shift; node '${resolve(ROOT, 'bin/mms-conformance.mjs')}' "$@"; }\n${printed.rerun}`], { cwd: shellDir, env: { ...process.env, CI: '1' }, encoding: 'utf8', timeout: 90_000 });
  expect(pasted.status, pasted.stdout + pasted.stderr).toBe(1);
  const again = printedIn(join(shellDir, 'reports', 'conformance.json'));
  expect(again.message, 'the replay runs that one sequence').toMatch(/^Error: Property failed after 1 tests$/m);
  expect(again.message).toMatch(/^Shrunk 0 time\(s\)$/m);
  expect(again.commands, 'the same counterexample').toEqual(printed.commands);
  expect(again.requests.length, 'as many requests').toBe(printed.requests.length);
  expect(stable(again), 'the same requests and the same failure').toBe(stable(printed));
  expect(again.rerun).toBe(printed.rerun);
});
