/**
 * A failed fast-check property in the report (suites/lib/property.ts): fast-check's message carries the
 * seed, the path of the shrunk counterexample and the counterexample itself; this appends the command
 * that replays exactly that counterexample (FC_SEED and FC_PATH, and FC_REPLAY_PATH for a command
 * sequence) against the run's own target (rerunOptions: its --profile and --target, or the embedded
 * mock's seed, variant and mutant; the generative budget), and puts the assertion message that
 * failed (the error's cause) before it.
 */
import type { TestError } from '@playwright/test/reporter';
import type { RunEnv } from '../../contract/run-env.ts';

const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The error's message followed by its causes' messages. */
export function errorText(error: TestError): string {
  const parts: string[] = [];
  for (let e: TestError | undefined = error; e && parts.length < 4; e = e.cause) parts.push(stripAnsi(e.message ?? e.value ?? ''));
  return parts.filter(Boolean).join('\nCaused by: ');
}

const quote = (s: string) => (/^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * What a rerun line needs to reach the run's target: `{ env, args }` (shell-quoted words) — for a
 * profile run `--profile FILE` (absolute) and `--target URL`; for the embedded mock its `--seed` and the
 * MOCK_VARIANT / MOCK_MUTANT it served; `--budget` when the run set one.
 */
export function rerunOptions(run: Partial<RunEnv>): { env: string[]; args: string[] } {
  const env: string[] = [];
  const args: string[] = [];
  if (run.targetProfile && !run.targetEmbedded) {
    args.push('--profile', quote(run.targetProfile));
    if (run.targetUrl) args.push('--target', quote(run.targetUrl));
  } else {
    if (run.mockVariant) env.push(`MOCK_VARIANT=${quote(run.mockVariant)}`);
    if (run.mockMutant) env.push(`MOCK_MUTANT=${quote(run.mockMutant)}`);
    if (run.mockSeed !== undefined) args.push('--seed', String(run.mockSeed));
  }
  if (run.genBudget !== undefined) args.push('--budget', String(run.genBudget));
  return { env, args };
}

/**
 * `message` with a rerun line appended when it is a fast-check failure naming a seed and a path;
 * `target` is the run's settings (rerunOptions), so the line reaches the same target.
 */
export function withRerunCommand(message: string, title: string, target: Partial<RunEnv> = {}): string {
  const run = /\{ seed: (-?\d+), path: "([\d:]+)"/.exec(message);
  // Playwright's error message starts with the error's name ("Error: Property failed after …").
  if (!run || !/^(Error: )?Property failed/.test(message)) return message;
  const counterexample = /^Counterexample: (.*)$/m.exec(message)?.[1];
  const assertion = message.split('\nCaused by: ')[1]?.split('\n').find((l) => l.trim());
  const head = [assertion ? `Property failed: ${assertion.trim()}` : undefined, counterexample ? `Shrunk counterexample: ${counterexample}` : undefined].filter(Boolean).join('\n');
  // A command sequence (fc.commands) also needs the replay path its counterexample prints.
  const replay = /\/\*replayPath="([^"]+)"\*\//.exec(message)?.[1];
  const options = rerunOptions(target);
  const env = [`FC_SEED=${run[1]}`, `FC_PATH=${run[2]}`, ...(replay ? [`FC_REPLAY_PATH=${replay}`] : []), ...options.env].join(' ');
  const args = options.args.length ? ` ${options.args.join(' ')}` : '';
  return `${head ? `${head}\n` : ''}${message}\nRerun: ${env} npx mms-conformance run${args} --grep "${title.replace(/["\\$`]/g, '\\$&')}"`;
}
