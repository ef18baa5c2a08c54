/**
 * How a mutant (mutation.ts) enters the mock: its decisions become options of the app (handlers,
 * limits, scope and module policies, request ids, the world), its request, body and response hooks
 * become stage hooks (pipeline/stages.ts). The app itself knows nothing of mutants; without one,
 * none of this runs.
 */
import type { AppOptions } from '../app.ts';
import { handlers as defaultHandlers } from '../handlers/index.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import type { StageHooks } from '../pipeline/stages.ts';
import type { Mutation } from './mutation.ts';

/** The app options a mutation replaces (spread them into the app's options). */
export function mutantOptions(mutation: Mutation): Omit<AppOptions, 'buildWorld'> {
  return {
    onWorld: mutation.world,
    handlers: mutation.handlers ? mutation.handlers(defaultHandlers) : undefined,
    rateLimits: mutation.rateLimits,
    rateBucket: mutation.rateBucket,
    cursorChecks: mutation.cursorChecks,
    maxBodyBytes: mutation.maxBodyBytes,
    requestView: mutation.requestView,
    requestId: mutation.requestId,
    scopeAllows: mutation.scopeAllows,
    skipModule: mutation.skipModule,
  };
}

/** The stage hooks of a mutation: `request` before onRequest, `body` before validateBody, `response` on send. */
export function mutantHooks(mutation: Mutation): StageHooks {
  const { request, body, response } = mutation;
  const before: StageHooks['before'] = {};
  if (request) {
    before.onRequest = [(ex: Exchange) => {
      ex.req.url = request(ex.method, ex.req.url ?? '/', ex.req.headers);
      ex.splitUrl();
    }];
  }
  if (body) {
    before.validateBody = [(ex: Exchange) => {
      if (ex.body !== undefined) ex.body = body(ex.op.operationId, ex.body);
    }];
  }
  return { before, onSend: response ? [response] : [] };
}
