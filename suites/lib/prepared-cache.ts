/**
 * Prepared requests (suites/recipes/) shared by the tests of one worker: a request a target refuses
 * changes nothing, so the record its recipe made serves the next test too. A test whose request was not
 * refused spoils it; a test that may consume the record — a success — takes it out of the cache, and puts
 * it back only when the success was to a safe method (RFC 9110 §9.2.1: GET, HEAD — a read, which the
 * client does not ask to change anything) with the status the recipe expects. The next test after a
 * spoiled or taken request prepares its own.
 *
 * `workerPrepared` is the worker's one cache: Playwright loads every test file a worker runs into one
 * process, and an ES module is evaluated once per process, so every file that imports it shares it — the
 * SPEC-008 wrong-type refusals and the SPEC-007 valid request (conformance/operations.spec.ts), the scope
 * refusals, the tenant 404s and the own-scope request (conformance/scopes.spec.ts), the negative phase's
 * 400s and change-nothing reads (generative/negative.spec.ts). Its keys are operationIds; every user
 * prepares through the operation's one recipe (recipes/index.ts `recipeOf`). The positive generative
 * phase, whose valid requests change their records, keeps its own.
 */
import type { PreparedRequest } from '../recipes/recipe.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Whether a response with `status` left the record of `request` as its recipe made it: a safe method
 * (RFC 9110 §9.2.1) answered with the success the recipe expects. Anything else — an unsafe method's
 * success, a failure, another status — may have changed or consumed it.
 */
export function leftRecordAsItWas(request: PreparedRequest, status: number): boolean {
  return SAFE_METHODS.has(request.method.toUpperCase()) && status === request.expect;
}

export class PreparedCache {
  private readonly byKey = new Map<string, Promise<PreparedRequest>>();

  /** The cached request of `key`, else the one `prepare` builds (cached only when it succeeds). */
  get(key: string, prepare: () => Promise<PreparedRequest>): Promise<PreparedRequest> {
    let request = this.byKey.get(key);
    if (!request) {
      request = prepare();
      this.byKey.set(key, request);
      request.catch(() => {
        if (this.byKey.get(key) === request) this.byKey.delete(key);
      });
    }
    return request;
  }

  /**
   * The request of `key` (cached or prepared), taken out of the cache: for a test that may consume its
   * record. Give it back with `returnIfUnchanged` once its response is known.
   */
  async take(key: string, prepare: () => Promise<PreparedRequest>): Promise<PreparedRequest> {
    const request = this.get(key, prepare);
    this.spoil(key);
    return request;
  }

  /**
   * Puts a taken `request` back under `key` when its response `status` left the record as it was
   * (`leftRecordAsItWas`) and nothing else was cached under `key` meanwhile; returns whether it did.
   */
  returnIfUnchanged(key: string, request: PreparedRequest, status: number): boolean {
    if (!leftRecordAsItWas(request, status) || this.byKey.has(key)) return false;
    this.byKey.set(key, Promise.resolve(request));
    return true;
  }

  /** Forgets the request of `key`: the next `get` prepares a new one. */
  spoil(key: string): void {
    this.byKey.delete(key);
  }

  /** Whether a request of `key` is cached (prepared or being prepared). */
  has(key: string): boolean {
    return this.byKey.has(key);
  }
}

/** The worker's one cache, shared by every test file the worker loads (see the module's description). */
export const workerPrepared = new PreparedCache();
