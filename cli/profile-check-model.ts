/** The shapes of `profile check` (cli/profile-check.ts, docs/vendors.md "Check the provisioning"): its probes, answers, findings and lines. */

/**
 * The finding for one profile entry: `ok`; `wrong` (a described operation contradicts it: why);
 * `missing` (not in the profile); `unverified` (only an inferred route or parameter could check it:
 * which and why). Only `wrong` refuses a run.
 */
export interface CheckLine { path: string; status: 'ok' | 'wrong' | 'missing' | 'unverified'; detail?: string }

/** The whole check: one line per entry and the number of requests it sent. */
export interface CheckResult { lines: CheckLine[]; requests: number }

/** A request of the check: method, path relative to the API base (with its query) and, for writes, a raw body. */
export interface Probe { method: string; url: string; body?: string }

/** What a probe's answer shows: status, problem code, the rate-limit header, the parsed body. */
export interface Answer { status: number; code?: string; limit?: string; body?: unknown }

/** What one probe found: nothing against the entry, a contradiction, or no described way to look. */
export type Finding = { wrong: string } | { unverified: string } | { ok: string | undefined };

/** Sends `probe` with `key` when the description describes it and judges the answer; else `unverified`. */
export type Look = (key: string, probe: Probe | string, want: (a: Answer) => boolean, what: string) => Promise<Finding>;
/** Records an entry from its findings: any `wrong` makes it wrong, else any `unverified` unverified, else ok. */
export type Add = (path: string, ...findings: Finding[]) => void;
/** A GET through a described operation only; `{unverified}` (which route or parameter, and why) when it is not described. */
export type Read = (key: string, url: string) => Promise<Answer | { unverified: string }>;
