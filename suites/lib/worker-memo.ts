/**
 * Values made once per worker and key, for tests that would each make the same thing (module state: one
 * memo per worker process, Playwright running a worker's tests one at a time): the shared sample
 * responses (response-samples.ts), the lists' issued first-page cursors (walk-pages.ts) and the records
 * prepared requests share (prepared-cache.ts). A value whose
 * making failed is forgotten, so the next test makes its own.
 */
export class WorkerMemo<T> {
  private readonly byKey = new Map<string, Promise<T>>();

  /** The value of `key`: the one a test of this worker made, else the one `make` makes now. */
  get(key: string, make: () => Promise<T>): Promise<T> {
    const known = this.byKey.get(key);
    if (known) return known;
    const made = make();
    this.byKey.set(key, made);
    made.catch(() => {
      if (this.byKey.get(key) === made) this.byKey.delete(key);
    });
    return made;
  }

  /** The value of `key` if a test of this worker made it (or is making it), without making one. */
  peek(key: string): Promise<T> | undefined {
    return this.byKey.get(key);
  }

  /** Sets the value of `key` (made elsewhere: a record a create made, one given back). */
  set(key: string, value: Promise<T>): void {
    this.byKey.set(key, value);
  }

  /** Forgets `key`: the next `get` makes a new value. */
  forget(key: string): void {
    this.byKey.delete(key);
  }
}
