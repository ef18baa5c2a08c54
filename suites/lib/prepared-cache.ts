/**
 * Prepared requests (suites/recipes/) shared by the tests of one worker: a request a target refuses
 * changes nothing, so the record its recipe made serves the next test too. A test whose request was not
 * refused spoils it; a test that may consume the record — a success — takes it out of the cache, and puts
 * it back only when the success was to a safe method (RFC 9110 §9.2.1: GET, HEAD — a read, which the
 * client does not ask to change anything) with the status the recipe expects. The next test after a
 * spoiled or taken request prepares its own.
 *
 * Records, too, are shared across operations: a recipe asks the cache for the record its request needs
 * (`SharedRecords`, recipes/recipe.ts `sharedRecord`: "a meter", "a work order"), so the refusals of
 * getMeter, updateMeter and listMeterReadings can all name one meter. Spoiling a request spoils every
 * record it names — and with them every other cached request naming one of them; taking it takes them
 * out of the cache until it is put back. A valid create's success (SPEC-007, the own-scope test) adds
 * the record it made, when none of its kind is shared: it is new, and no other test knows it.
 *
 * `workerPrepared` is the worker's one cache: Playwright loads every test file a worker runs into one
 * process, and an ES module is evaluated once per process, so every file that imports it shares it — the
 * SPEC-008 wrong-type refusals and the SPEC-007 valid request (conformance/operations-requests.spec.ts),
 * the scope refusals, the tenant 404s and the own-scope request (conformance/scopes.spec.ts), the
 * negative phase's 400s and change-nothing reads (generative/negative.spec.ts). Its keys are
 * operationIds; every user prepares through the operation's one recipe (recipes/index.ts `recipeOf`).
 * Everything else — the positive generative phase, whose valid requests change their records, the delete
 * tests, the kits — calls recipes without `records` and makes its own.
 */
import type { PreparedRequest, SharedRecords } from '../recipes/recipe.ts';
import { WorkerMemo } from './worker-memo.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Whether a response with `status` left the record of `request` as its recipe made it: a safe method
 * (RFC 9110 §9.2.1) answered with the success the recipe expects. Anything else — an unsafe method's
 * success, a failure, another status — may have changed or consumed it.
 */
export function leftRecordAsItWas(request: PreparedRequest, status: number): boolean {
  return SAFE_METHODS.has(request.method.toUpperCase()) && status === request.expect;
}

interface Entry {
  request: Promise<PreparedRequest>;
  /** The kinds of shared record the request names. */
  kinds: Set<string>;
}

interface Taken {
  request: PreparedRequest;
  records: Map<string, Promise<unknown>>;
}

export class PreparedCache {
  private readonly byKey = new Map<string, Entry>();
  private readonly records = new WorkerMemo<unknown>();
  private readonly taken = new Map<string, Taken>();

  /**
   * The cached request of `key`, else the one `prepare` builds (cached only when it succeeds); `prepare`
   * gets the cache's shared records to build it on (recipes/recipe.ts `RecipeContext.records`).
   */
  get(key: string, prepare: (records: SharedRecords) => Promise<PreparedRequest>): Promise<PreparedRequest> {
    const cached = this.byKey.get(key);
    if (cached) return cached.request;
    const kinds = new Set<string>();
    const request = prepare({ record: (kind, make) => this.record(kinds, kind, make) });
    this.byKey.set(key, { request, kinds });
    request.catch(() => {
      if (this.byKey.get(key)?.request === request) this.byKey.delete(key);
    });
    return request;
  }

  /**
   * The request of `key` (cached or prepared), taken out of the cache with the records it names: for a
   * test that may consume them. Give it back with `returnIfUnchanged` once its response is known.
   */
  async take(key: string, prepare: (records: SharedRecords) => Promise<PreparedRequest>): Promise<PreparedRequest> {
    const pending = this.get(key, prepare);
    const request = await pending;
    const entry = this.byKey.get(key);
    const kinds = entry?.request === pending ? entry.kinds : new Set<string>();
    const records = new Map([...kinds].flatMap((kind) => { const record = this.records.peek(kind); return record ? [[kind, record] as const] : []; }));
    this.taken.set(key, { request, records });
    this.spoil(key);
    return request;
  }

  /**
   * Puts a taken `request` back under `key`, with its records, when its response `status` left them as
   * they were (`leftRecordAsItWas`) and nothing was cached under `key` or those records' kinds meanwhile;
   * returns whether it did.
   */
  returnIfUnchanged(key: string, request: PreparedRequest, status: number): boolean {
    const taken = this.taken.get(key);
    this.taken.delete(key);
    if (taken?.request !== request || !leftRecordAsItWas(request, status) || this.byKey.has(key)) return false;
    if ([...taken.records.keys()].some((kind) => this.records.peek(kind))) return false;
    for (const [kind, record] of taken.records) this.records.set(kind, record);
    this.byKey.set(key, { request: Promise.resolve(request), kinds: new Set(taken.records.keys()) });
    return true;
  }

  /**
   * Forgets the request of `key` and every record it names (its request, not refused, may have changed
   * them), and so every other request naming one of those records: the next `get` prepares anew.
   */
  spoil(key: string): void {
    const entry = this.byKey.get(key);
    this.byKey.delete(key);
    for (const kind of entry?.kinds ?? []) {
      this.records.forget(kind);
      for (const [other, e] of this.byKey) if (e.kinds.has(kind)) this.byKey.delete(other);
    }
  }

  /**
   * Shares `record`, which a valid create just made (recipes/index.ts `createdRecord`), as the record of
   * `kind` when none is shared: the next recipe that needs one builds on it instead of making one.
   * Returns whether it did.
   */
  share(kind: string, record: unknown): boolean {
    if (this.records.peek(kind)) return false;
    this.records.set(kind, Promise.resolve(record));
    return true;
  }

  /** Whether a request of `key` is cached (prepared or being prepared). */
  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The shared record of `kind` (noted in `kinds`), else the one `make` creates (shared only when it succeeds). */
  private record<T>(kinds: Set<string>, kind: string, make: () => Promise<T>): Promise<T> {
    kinds.add(kind);
    return this.records.get(kind, make) as Promise<T>;
  }
}

/** The worker's one cache, shared by every test file the worker loads (see the module's description). */
export const workerPrepared = new PreparedCache();
