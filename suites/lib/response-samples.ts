/**
 * Shared sample responses, per worker: the Schemathesis way, "universal checks ride on requests tests
 * already make". A format rule (problem details, envelopes, request ids, documented headers) is judged on
 * ordinary responses; the tests of such rules in one worker share one set of them instead of each making
 * its own (docs/history.md, "Suite requests rounds").
 *
 * Accounting (docs/design.md §6): a sample's requests count in the test that sent them — the first test of
 * the worker that asked for the set. A later test judging the same response *borrows* it: the exchange is
 * appended to the borrowing test's session marked `sentBy` (contract/exchange.ts), so it is that test's
 * evidence when an assertion on it fails, and it is not counted among that test's requests.
 *
 * A set is made once per worker and key; a set whose making threw is forgotten (the next test makes its
 * own). Sets never assert: a sample of the wrong status is returned as it came, and each test asserts
 * only its own rule on it, so one sample's trouble fails no other requirement.
 */
import { test } from '@playwright/test';
import { tracked, type ApiClient, type ApiResponse, type ClientSession } from './client.ts';
import { WorkerMemo } from './worker-memo.ts';

/** Named sample responses; a name is absent when the target could not give that sample. */
export type SampleSet = Record<string, ApiResponse | undefined>;

interface Made {
  set: SampleSet;
  session: ClientSession;
  sentBy: string;
}

/** Copies already borrowed into a session, by original exchange: borrowing twice adds one copy. */
const borrowed = new WeakMap<ClientSession, Map<object, ApiResponse>>();

/**
 * `response` (recorded in another test's session) as a response of `session`: its exchange is appended
 * to `session.exchanges` with `sentBy`, and reading the copy marks that entry as the one looked at.
 */
export function borrow<T>(session: ClientSession, response: ApiResponse<T>, sentBy: string): ApiResponse<T> {
  const copies = borrowed.get(session) ?? new Map<object, ApiResponse>();
  borrowed.set(session, copies);
  const original = response.exchange;
  const known = copies.get(original);
  if (known) return known as ApiResponse<T>;
  session.exchanges.push({ ...original, sentBy });
  const copy = tracked<T>(session, session.exchanges.length - 1, { status: original.status, headers: original.responseHeaders, body: original.json as T, text: response.text, exchange: original });
  copies.set(original, copy);
  return copy;
}

/** The title path of the running test (the file left out): who sent a sample, for `borrow`'s `sentBy`. */
export function runningTest(): string {
  return test.info().titlePath.slice(1).join(' › ');
}

/** Sample sets by key, made once per worker (module state: one pool per worker process). */
export class SamplePool {
  private readonly made = new WorkerMemo<Made>();

  /**
   * The set of `key`: made now by `make` through `client` (its requests count in the running test), or
   * the one an earlier test of this worker made, borrowed into `client`'s session.
   */
  async get(client: ApiClient, key: string, make: () => Promise<SampleSet>): Promise<SampleSet> {
    const { set, session, sentBy } = await this.made.get(key, async () => ({ set: await make(), session: client.session, sentBy: runningTest() }));
    if (session === client.session) return set;
    return Object.fromEntries(Object.entries(set).map(([name, r]) => [name, r && borrow(client.session, r, sentBy)]));
  }

  /** One response made once per worker: `get` of a set holding it alone (its body typed as `send`'s). */
  async one<T>(client: ApiClient, key: string, send: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
    return (await this.get(client, key, async () => ({ response: await send() }))).response! as ApiResponse<T>;
  }
}

/** The worker's pool. */
export const samplePool = new SamplePool();
