/**
 * Prepared requests shared by consecutive tests of one worker (the scope check of one operation,
 * suites/conformance/scopes.spec.ts): a request a target refuses changes nothing, so the record its
 * recipe made serves the next test too. A test whose request was not refused — or that may consume the
 * record (a success) — spoils it; the next test then prepares its own. Module state: one cache per worker.
 */
import type { PreparedRequest } from '../recipes/recipe.ts';

export class PreparedCache {
  private readonly byKey = new Map<string, Promise<PreparedRequest>>();

  /** The cached request of `key`, else the one `prepare` builds (cached only when it succeeds). */
  get(key: string, prepare: () => Promise<PreparedRequest>): Promise<PreparedRequest> {
    let request = this.byKey.get(key);
    if (!request) {
      request = prepare();
      this.byKey.set(key, request);
      request.catch(() => this.byKey.delete(key));
    }
    return request;
  }

  /** Forgets the request of `key`: the next `get` prepares a new one. */
  spoil(key: string): void {
    this.byKey.delete(key);
  }
}
