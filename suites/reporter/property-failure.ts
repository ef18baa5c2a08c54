/**
 * A failed fast-check property in the report (suites/lib/property.ts): fast-check's message carries the
 * seed, the path of the shrunk counterexample and the counterexample itself; this appends the command
 * that replays exactly that counterexample (FC_SEED and FC_PATH, and FC_REPLAY_PATH for a command
 * sequence), and puts the assertion message that
 * failed (the error's cause) before it.
 */
import type { TestError } from '@playwright/test/reporter';

const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The error's message followed by its causes' messages. */
export function errorText(error: TestError): string {
  const parts: string[] = [];
  for (let e: TestError | undefined = error; e && parts.length < 4; e = e.cause) parts.push(stripAnsi(e.message ?? e.value ?? ''));
  return parts.filter(Boolean).join('\nCaused by: ');
}

/** `message` with a rerun line appended when it is a fast-check failure naming a seed and a path. */
export function withRerunCommand(message: string, title: string): string {
  const run = /\{ seed: (-?\d+), path: "([\d:]+)"/.exec(message);
  // Playwright's error message starts with the error's name ("Error: Property failed after …").
  if (!run || !/^(Error: )?Property failed/.test(message)) return message;
  const counterexample = /^Counterexample: (.*)$/m.exec(message)?.[1];
  const assertion = message.split('\nCaused by: ')[1]?.split('\n').find((l) => l.trim());
  const head = [assertion ? `Property failed: ${assertion.trim()}` : undefined, counterexample ? `Shrunk counterexample: ${counterexample}` : undefined].filter(Boolean).join('\n');
  // A command sequence (fc.commands) also needs the replay path its counterexample prints.
  const replay = /\/\*replayPath="([^"]+)"\*\//.exec(message)?.[1];
  const env = `FC_SEED=${run[1]} FC_PATH=${run[2]}${replay ? ` FC_REPLAY_PATH=${replay}` : ''}`;
  return `${head ? `${head}\n` : ''}${message}\nRerun: ${env} npx mms-conformance run --grep "${title.replace(/["\\$`]/g, '\\$&')}"`;
}
