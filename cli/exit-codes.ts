/** The CLI's exit codes (issue 5 §5). */
export const EXIT = {
  /** Conformant (or incomplete without --fail-on-incomplete), or no regression against the baseline. */
  ok: 0,
  /** Not conformant, regressions against a baseline, or (with --strict) any failed test. */
  failed: 1,
  /** Bad usage, unreachable target, invalid profile, waivers or report. */
  usage: 2,
} as const;

/** An error the CLI reports as one line and exit code 2. */
export class UsageError extends Error {}
