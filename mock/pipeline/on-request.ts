/**
 * Stage onRequest: a missing Host in HTTP/1.1 is a 400 (node:http would answer it itself, without
 * problem details: the server sets requireHostHeader: false), so are two Host headers (RFC 9112 §3.2)
 * and two Authorization headers (node:http would keep the first silently); `/__mock/...` goes to the
 * control API when it is on (docs/design.md §4).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { invalid } from '../http/problem.ts';
import type { Exchange } from './exchange.ts';
import { ANSWERED, type Step } from './stages.ts';

/** Handles `/__mock/...` requests (the control API); returns false when it does not know the path. */
export type ControlHandler = (req: IncomingMessage, res: ServerResponse, path: string, requestId: string) => boolean;

/** The onRequest step; `control()` is read per request (the control API is attached after start). */
export function onRequestStep(control: () => ControlHandler | undefined): Step {
  return (ex: Exchange) => {
    const req = ex.req;
    if (req.headers.host === undefined && req.httpVersion === '1.1') throw invalid('header', 'Host', 'is required in HTTP/1.1');
    const twice = repeatedSingleton(req.rawHeaders);
    if (twice) throw invalid('header', twice, 'must be sent once');
    if (ex.path.startsWith('/__mock/') && control()?.(req, ex.res, ex.path, ex.requestId)) return ANSWERED;
  };
}

/** `Host` or `Authorization` when the raw headers (name, value, name, value, ...) hold it more than once. */
function repeatedSingleton(raw: string[]): string | undefined {
  let host = 0;
  let authorization = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host' && ++host > 1) return 'Host';
    if (name.length === 13 && name.toLowerCase() === 'authorization' && ++authorization > 1) return 'Authorization';
  }
  return undefined;
}
