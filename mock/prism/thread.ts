/**
 * Prism in a worker thread of its own (docs/design.md §4, layer 6): the `Prefer` fallback's answers
 * come from @stoplight/prism-http loaded there (thread-worker.ts), never into the mock's own heap —
 * loaded beside the handlers it cost every other request 1.1–8.8 µs of CPU (docs/history.md,
 * "Throughput rounds", round 9) — and its second of loading runs beside the request path instead of
 * stalling it. One thread per process, shared by every mock in it (Prism's answers depend on the spec
 * only), started on the first need; it keeps the process alive only while a request waits for it.
 */
import { Worker } from 'node:worker_threads';
import { ProblemError } from '../http/problem.ts';
import type { PrismFallback, PrismRequest } from './fallback.ts';

/** Prism's answer (fallback.ts `respond`): a response, or the problem the mock answers instead. */
export type PrismAnswer = Awaited<ReturnType<PrismFallback['respond']>>;

/** A message from the thread: one answer, problem or error per request id. */
export type ThreadReply =
  | { id: number; answer: PrismAnswer }
  | { id: number; problem: Pick<ProblemError, 'status' | 'code' | 'detail' | 'extra' | 'headers'> }
  | { id: number; error: string };

type Waiting = { resolve(answer: PrismAnswer): void; reject(error: Error): void };

class PrismThread {
  /** Settles when Prism has loaded in the thread; rejects when the thread failed first. */
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;

  constructor(onExit: () => void) {
    this.worker = new Worker(new URL('./thread-entry.mjs', import.meta.url), { execArgv: [] });
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (message: { ready: true } | ThreadReply) => {
        if ('ready' in message) return resolve();
        this.settle(message);
      });
      this.worker.on('error', reject);
      this.worker.once('exit', (code) => {
        const gone = new Error(`the Prism thread stopped (exit code ${code})`);
        reject(gone);
        for (const waiting of this.waiting.values()) waiting.reject(gone);
        this.waiting.clear();
        onExit();
      });
    });
  }

  /** Prism's answer to `request` for the operation; rejects with ProblemError (400) for a preference it cannot honour. */
  respond(operationId: string, request: PrismRequest): Promise<PrismAnswer> {
    const id = ++this.nextId;
    if (this.waiting.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, operationId, request });
    });
  }

  private settle(reply: ThreadReply): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.worker.unref();
    if ('answer' in reply) waiting.resolve(reply.answer);
    else if ('problem' in reply) waiting.reject(new ProblemError(reply.problem.status, reply.problem.code, reply.problem.detail, reply.problem.extra, reply.problem.headers));
    else waiting.reject(new Error(reply.error));
  }
}

let thread: PrismThread | undefined;

/** The process's Prism thread, started on the first call (again after it stopped); resolves once Prism has loaded. */
export function prismThread(): Promise<PrismThread> {
  const current = (thread ??= new PrismThread(() => {
    if (thread === current) thread = undefined;
  }));
  return current.ready.then(() => current);
}
