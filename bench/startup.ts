/**
 * Start-up and shutdown (docs/maintainers.md, Benchmarks). `npm run mock -- --port 0` is started as a user would,
 * in a process group of its own, and timed from the spawn to its "ready" line and to its first answer.
 * Ctrl-C is imitated by SIGINT to the whole process group, on `tsx mock/main.ts` (the command the npm
 * script runs). npm's own status is recorded too: when /bin/sh (dash) dies of the SIGINT, npm re-raises
 * it on itself, whatever the mock's exit code.
 */
import { controlHeaders } from './control.ts';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { ROOT } from '../contract/paths.ts';
import { median } from './load.ts';

export interface StartupRun {
  /** Milliseconds from the spawn of `npm run mock` to its "ready" line, and to its first answer. */
  readyLineMs: number;
  firstAnswerMs: number;
  /** The figure the mock prints itself (since its node process started). */
  reportedMs: number;
  /** How `npm run mock` ended on Ctrl-C, and how `tsx mock/main.ts` did. */
  npmExit: string;
  mockExit: string;
}

export interface StartupReport {
  runs: StartupRun[];
  readyLineMs: number;
  firstAnswerMs: number;
  reportedMs: number;
  /** Every `tsx mock/main.ts` stopped with exit code 0 on Ctrl-C. */
  cleanExit: boolean;
}

const READY = /ready in (\d+) ms[\s\S]*?API base\s+(\S+)/;

/** Spawns `command` in a new process group, waits for the ready line, answers, then Ctrl-C. */
async function startAndInterrupt(command: string, args: string[]): Promise<{ readyLineMs: number; firstAnswerMs: number; reportedMs: number; exit: string }> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<string>((done) => child.once('exit', (code, signal) => done(code !== null ? `code ${code}` : `signal ${signal}`)));
  const ready = await new Promise<{ match: RegExpExecArray; at: number }>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = READY.exec(out);
      if (match) done({ match, at: performance.now() });
    });
    child.stderr!.resume();
    child.once('exit', (code) => fail(new Error(`${command} exited with ${code} before it was ready: ${out}`)));
  });
  const answer = await fetch(`${ready.match[2]!.replace(/\/v1$/, '')}/__mock/health`, { headers: controlHeaders() });
  const firstAnswerMs = performance.now() - started;
  if (answer.status !== 200) throw new Error(`the mock's health answered ${answer.status}`);
  process.kill(-child.pid!, 'SIGINT');
  return { readyLineMs: ready.at - started, firstAnswerMs, reportedMs: Number(ready.match[1]), exit: await exited };
}

/** Starts and interrupts `npm run mock` and `tsx mock/main.ts`, `runs` times each. */
export async function startup(runs: number): Promise<StartupReport> {
  const list: StartupRun[] = [];
  for (let i = 0; i < runs; i++) {
    const npm = await startAndInterrupt('npm', ['run', '--silent', 'mock', '--', '--port', '0']);
    const tsx = await startAndInterrupt(resolve(ROOT, 'node_modules/.bin/tsx'), ['mock/main.ts', '--port', '0']);
    list.push({ readyLineMs: npm.readyLineMs, firstAnswerMs: npm.firstAnswerMs, reportedMs: npm.reportedMs, npmExit: npm.exit, mockExit: tsx.exit });
  }
  return {
    runs: list,
    readyLineMs: median(list.map((r) => r.readyLineMs)),
    firstAnswerMs: median(list.map((r) => r.firstAnswerMs)),
    reportedMs: median(list.map((r) => r.reportedMs)),
    cleanExit: list.every((r) => r.mockExit === 'code 0'),
  };
}
