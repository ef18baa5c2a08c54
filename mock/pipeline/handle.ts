/**
 * Stage handle (docs/design.md §4, layer 6): the operation's stateful handler (one file per family under
 * mock/handlers/) answers; `send` writes its reply with the rate-limit headers on a success.
 */
import type { HandlerMap, Reply } from '../http/context.ts';
import type { Exchange } from './exchange.ts';
import { ANSWERED, type Step } from './stages.ts';

/** The handle step over `handlers` (keyed by operationId; the prism stage answers what has none). */
export function handleStep(handlers: HandlerMap, send: (ex: Exchange, reply: Reply) => void): Step {
  return (ex: Exchange) => {
    send(ex, handlers[ex.op.operationId]!(ex));
    return ANSWERED;
  };
}
