/**
 * The CLI's exit codes (docs/ci.md, "Exit codes"): what a CI gate can trust.
 *
 * | code | meaning |
 * | 0    | conformant; or incomplete with --allow-incomplete |
 * | 1    | not conformant; incomplete without --allow-incomplete; a regression against --baseline; with --strict any failed test |
 * | 2    | bad usage, profile, waivers, report, output folder; unreachable target; a run whose setup failed or that executed no test |
 * | 130  | interrupted by SIGINT (no verdict written) |
 * | 143  | terminated by SIGTERM (no verdict written) |
 */
import type { Verdict } from '../contract/report/model.ts';

export const EXIT = { ok: 0, failed: 1, usage: 2, sigint: 130, sigterm: 143 } as const;

/**
 * The table above as a command's `--help` prints it, naming only options that command has: `run` has
 * --baseline and --strict, `report merge` neither.
 */
export function exitCodeHelp(command: 'run' | 'merge'): string {
  const one = command === 'run'
    ? `not conformant; incomplete without --allow-incomplete; a must requirement regressed against
       --baseline; with --strict any failed test`
    : 'not conformant; incomplete without --allow-incomplete';
  const two = command === 'run'
    ? `bad usage, profile, waivers, report or output folder; unreachable target; a run whose setup
       failed or that executed no test (e.g. a --grep matching nothing)`
    : 'bad usage, waivers, signing key or output folder; unreadable shard reports; a missing shard';
  return `Exit codes:
  0    conformant; or incomplete with --allow-incomplete
  1    ${one}
  2    ${two}
  130  interrupted (SIGINT), 143 terminated (SIGTERM): the ${command === 'run' ? 'run' : 'merge'} is stopped, no verdict is written`;
}

/** An error the CLI reports as one line and exit code 2. */
export class UsageError extends Error {}

/** The run was stopped by a signal the CLI received; exits 128 + the signal's number. */
export class Interrupted extends Error {
  constructor(readonly signal: 'SIGINT' | 'SIGTERM') {
    super(`interrupted by ${signal}`);
  }

  get exitCode(): number {
    return this.signal === 'SIGINT' ? EXIT.sigint : EXIT.sigterm;
  }
}

/** The exit code of a verdict: 0 conformant (or incomplete when allowed), 1 otherwise. */
export function verdictExitCode(verdict: Verdict, allowIncomplete = false): number {
  return verdict === 'conformant' || (verdict === 'incomplete' && allowIncomplete) ? EXIT.ok : EXIT.failed;
}
