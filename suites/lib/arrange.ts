/**
 * Arranging versus asserting (docs/design.md §5: preconditions are never verdicts; docs/maintainers.md,
 * "Writing a test"). A test first arranges — creates records, moves a record into a state, finds a record
 * of a kind in another organization — then acts and asserts. What fails while arranging says nothing
 * about the requirement under test: an unexpected status, a body without the record, a missing
 * capability, a record the description does not promise, or a write answered 2xx whose effect does not
 * show on read-back. `arrange` turns every such failure into "not assessed" with its reason (a skip whose
 * reason starts `not assessed: precondition not met:`, suites/lib/needs.ts), never a failed test.
 *
 * A stated write that does not apply stays a deviation: the test whose requirement states it sends that
 * write as its act, outside `arrange`, and asserts it there — only that test fails.
 *
 * Exchanges sent while arranging carry `arranging` (the step's description: contract/exchange.ts), so
 * the report and the universal checks can tell them from the exchanges a test asserts on.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { test } from '@playwright/test';
import { NOT_ASSESSED, notAssessed } from './needs.ts';

/** The words after `not assessed:` that say a test's arranging failed (and why). */
export const PRECONDITION_NOT_MET = 'precondition not met:';

/** A failure of arranging with a reason of its own (`unapplied`, `arrangedStatus`). */
export class ArrangeError extends Error {
  override name = 'ArrangeError';
}

// Per async context, so that arranging steps a test runs at once (lib/concurrently.ts) each name their own requests.
const active = new AsyncLocalStorage<string>();

/** The description of the arranging step the calling code runs in, if any (innermost). */
export function arrangingNow(): string | undefined {
  return active.getStore();
}

const ESCAPES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** One line of an error's message: no colour codes, no stack, at most 300 characters. */
export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.replace(ESCAPES, '').split('\n').map((l) => l.trim()).filter(Boolean);
  // expect's messages put the caller's text first and "Expected/Received" after: keep both, shortly.
  const line = lines.slice(0, 3).join(' ').replace(/\s+/g, ' ');
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}

/**
 * Runs `steps` as the arranging part of the running test and returns what they return. When they throw
 * (an `expect`, an `ArrangeError`, a TypeError on a body without the record, …) the test ends as not
 * assessed: `not assessed: precondition not met: <what>: <reason>`. A skip already decided inside
 * (`need`, `notAssessed`, a nested `arrange`) passes through unchanged. Never use it around the act a
 * requirement states: its failure is the verdict.
 */
export async function arrange<T>(what: string, steps: () => Promise<T>): Promise<T> {
  try {
    return await active.run(what, steps);
  } catch (error) {
    const info = test.info();
    if (info.expectedStatus === 'skipped') throw error;
    notAssessed(`${PRECONDITION_NOT_MET} ${what}: ${reasonOf(error)}`);
  }
}

/**
 * `steps` as a function whose every call is arranged (`arrange(what, …)`): how a kit offers its set-up
 * calls (`create`, `pendingRequest`, `observe` …), so every test that uses them gets the separation.
 */
export function arranging<A extends unknown[], R>(what: string, steps: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) => arrange(what, () => steps(...args));
}

/** Whether a skip reason is an arranging failure (`arrange`), as the report reads it. */
export function isPreconditionReason(reason: string | undefined): boolean {
  return !!reason && reason.startsWith(`${NOT_ASSESSED} ${PRECONDITION_NOT_MET}`);
}

type Scalar = string | number | boolean | null;
const isScalar = (v: unknown): v is Scalar => v === null || ['string', 'number', 'boolean'].includes(typeof v);
/**
 * Whether `shown` shows the value `sent`: equal, the same instant, or the same text — a value applied
 * but typed otherwise ("4" for 4) did apply; its type is the business of the tests and checks of types.
 */
const sameValue = (shown: unknown, sent: Scalar) =>
  shown === sent
  || (typeof shown === 'string' && typeof sent === 'string' && /^\d{4}-\d\d-\d\dT/.test(sent) && Date.parse(shown) === Date.parse(sent))
  || (shown !== null && shown !== undefined && sent !== null && typeof shown !== 'object' && String(shown) === String(sent));

/**
 * Throws an `ArrangeError` unless `record` (as read back: the write's answer or a later read) shows every
 * scalar member of `sent` (date-times compared as instants, other values by their text): the write
 * answered 2xx but did not apply, or applied what the suite cannot see. Objects and arrays are not
 * compared. Use inside `arrange`.
 */
export function expectApplied(record: unknown, sent: Record<string, unknown>, what: string): void {
  const shown = (record ?? {}) as Record<string, unknown>;
  const missing = Object.entries(sent).filter(([k, v]) => isScalar(v) && !sameValue(shown[k], v));
  if (missing.length) {
    const list = missing.map(([k, v]) => `${k} = ${JSON.stringify(v)} (read back: ${k in shown ? JSON.stringify(shown[k]) : 'absent'})`).join(', ');
    throw new ArrangeError(`${what} answered 2xx but the record read back does not show ${list}`);
  }
}
