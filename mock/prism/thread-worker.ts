/**
 * The Prism thread's side (thread.ts): loads Prism (fallback.ts: its code, then the spec's operations
 * and its instance) and the mock's operations once, says `ready`, then answers each `{ id,
 * operationId, request }` with `{ id, answer }`, or `{ id, problem }` when Prism cannot honour the
 * preference (a ProblemError, re-thrown as one by the mock), or `{ id, error }` for anything else (a
 * 500 the mock logs).
 */
import { parentPort } from 'node:worker_threads';
import { loadOperations, type Operation } from '../../contract/openapi.ts';
import { ProblemError } from '../http/problem.ts';
import { PrismFallback, type PrismRequest } from './fallback.ts';
import type { ThreadReply } from './thread.ts';

const port = parentPort!;
const fallback = new PrismFallback();
const operations = new Map<string, Operation>(loadOperations().map((op) => [op.operationId, op]));

port.on('message', ({ id, operationId, request }: { id: number; operationId: string; request: PrismRequest }) => {
  const op = operations.get(operationId);
  const answered = op ? fallback.respond(op, request) : Promise.reject(new Error(`no operation ${operationId} in the spec`));
  answered.then(
    (answer) => port.postMessage({ id, answer } satisfies ThreadReply),
    (e: unknown) => {
      const reply: ThreadReply = e instanceof ProblemError
        ? { id, problem: { status: e.status, code: e.code, detail: e.detail, extra: e.extra, headers: e.headers } }
        : { id, error: String((e as Error)?.stack ?? e) };
      port.postMessage(reply);
    },
  );
});
// Ready once Prism is built (about a quarter of a second after its code has loaded), so the first
// `Prefer` request after `prismLoaded` waits for none of it.
await fallback.load();
port.postMessage({ ready: true });
