/**
 * Time marks of a conformance run's phases for `npm run bench` (bench/suite.ts): when the run's
 * environment names a file (MMS_TIMINGS, contract/run-env.ts), the CLI, the global setup and the
 * conformance reporter append one line each, `<event> <epoch ms>`, so the start-up splits into the CLI,
 * the runner's own start, the embedded mock's start, the loading of the test files, and the end into
 * the reports and the exit. Without the variable nothing is written. A failed write is ignored: timing
 * never changes a run.
 */
import { appendFileSync } from 'node:fs';
import { readRunEnv } from './run-env.ts';

/** Appends `event` at `at` (epoch milliseconds, default now) to the run's timings file, if any. */
export function markTime(event: string, at: number = Date.now()): void {
  const file = readRunEnv().timingsFile;
  if (!file) return;
  try {
    appendFileSync(file, `${event} ${Math.round(at)}\n`);
  } catch {
    /* timing never changes a run */
  }
}

/** This process's start, in epoch milliseconds. */
export function processStart(): number {
  return performance.timeOrigin;
}

/** Reads a timings file: each event's first time, in epoch milliseconds. */
export function parseTimings(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const m = /^(\S+) (\d+)$/.exec(line.trim());
    if (m && out[m[1]!] === undefined) out[m[1]!] = Number(m[2]);
  }
  return out;
}
