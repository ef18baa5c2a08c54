/**
 * Stage onRequest: a missing Host in HTTP/1.1 is a 400 (node:http would answer it itself, without
 * problem details: the server sets requireHostHeader: false), and `/__mock/...` goes to the control
 * API when it is on (design.md §4).
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
    if (ex.path.startsWith('/__mock/') && control()?.(req, ex.res, ex.path, ex.requestId)) return ANSWERED;
  };
}
