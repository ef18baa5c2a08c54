/** Starting the CLI from tests: asynchronously (a run may take a while), output collected, exit awaited. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from '../../contract/paths.ts';

export interface CliRun { child: ChildProcess; output: () => string; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }

/** Starts `mms-conformance <args>` (CI mode) in its own process group; `env` is added to this process's. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): CliRun {
  const child = spawn(process.execPath, [resolve(ROOT, 'bin/mms-conformance.mjs'), ...args], { cwd: ROOT, env: { ...process.env, CI: '1', ...env }, detached: true });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  return { child, output: () => output, exit };
}

/** Runs `mms-conformance <args>` to its end. */
export async function cliRun(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; output: string }> {
  const run = startCli(args, env);
  const { code } = await run.exit;
  return { code: code ?? -1, output: run.output() };
}

/** Every live process descending from `pid` (from /proc), with its command line. */
export function descendants(pid: number): Array<{ pid: number; cmd: string }> {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone meanwhile */
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.shift()!;
    for (const [child, ppid] of parent) if (ppid === p) { found.push(child); queue.push(child); }
  }
  return found.map((p) => ({ pid: p, cmd: readCmd(p) }));
}

function readCmd(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

/** Whether `pid` is alive (and not a zombie). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
