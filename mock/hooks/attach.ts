/**
 * How an alteration (alteration.ts: a mutant of the self-test, a variant of docs/freedoms.md) enters
 * the mock: its handlers and world change the app's options (`alterationOptions`); everything else
 * attaches through the stage hooks (`alterationHooks`, pipeline/stages.ts) — request, body and response
 * hooks before their stages and on send, a request id of its own before onRequest, and stage work of
 * its own in place of the route, rate-limit, validate, authorize, validateBody and readBody stages' for
 * another view of the spec's request rules, other budgets, buckets, cursor bindings, scope and module
 * policies or body limits. The app has no option
 * for any of them; without an alteration none of this runs.
 */
import type { AppOptions, StageTools } from '../app.ts';
import { handlers as defaultHandlers } from '../handlers/index.ts';
import { authorizeStep } from '../pipeline/authorize.ts';
import type { Exchange } from '../pipeline/exchange.ts';
import { rateLimitStep } from '../pipeline/rate-limit.ts';
import { readBodyStep, validateBodyStep } from '../pipeline/read-body.ts';
import type { StageHooks, StageWork } from '../pipeline/stages.ts';
import { validateStep } from '../pipeline/validate.ts';
import { routeStep } from '../pipeline/route.ts';
import { loadOperations } from '../../contract/openapi.ts';
import { Router } from '../../contract/router.ts';
import { compileRequestValidators } from '../../contract/validators.ts';
import type { Alteration } from './alteration.ts';

/** The app options an alteration sets: the handlers it wraps and the change it makes to every world built. */
export function alterationOptions(alteration: Alteration): Pick<AppOptions, 'onWorld' | 'handlers'> {
  return {
    onWorld: alteration.world,
    handlers: alteration.handlers ? alteration.handlers(defaultHandlers) : undefined,
  };
}

/** The stage hooks of an alteration (none for what it does not change). */
export function alterationHooks(alteration: Alteration): StageHooks<StageTools> {
  const { request, body, response, requestId } = alteration;
  const before: StageHooks['before'] = {};
  const onRequest: Array<(ex: Exchange) => void> = [];
  if (requestId) onRequest.push((ex) => { ex.requestId = requestId(() => ex.requestId); });
  if (request) {
    onRequest.push((ex) => {
      ex.req.url = request(ex.method, ex.req.url ?? '/', ex.req.headers);
      ex.splitUrl();
    });
  }
  if (onRequest.length) before.onRequest = onRequest;
  if (body) {
    before.validateBody = [(ex: Exchange) => {
      if (ex.body !== undefined) ex.body = body(ex.op.operationId, ex.body);
    }];
  }
  return { before, onSend: response ? [response] : [], replace: (work, tools) => replacedWork(alteration, work, tools) };
}

/** The stages' work an alteration's rules replace. */
function replacedWork(a: Alteration, _work: Readonly<StageWork>, tools: StageTools): Partial<StageWork> {
  const out: Partial<StageWork> = {};
  if (a.rateLimits || a.rateBucket) out.rateLimit = rateLimitStep(tools.limiter({ ...tools.limits, ...a.rateLimits }), a.rateBucket);
  if (a.cursorChecks) out.validate = validateStep(tools.cursors(a.cursorChecks), () => tools.app.origin);
  if (a.scopeAllows || a.skipModule) {
    const policy = { scopeAllows: a.scopeAllows, skipModule: a.skipModule };
    const modules = tools.modules(policy);
    out.authorize = authorizeStep(policy, modules);
    out.validateBody = validateBodyStep(modules);
  }
  if (a.maxBodyBytes !== undefined) out.readBody = readBodyStep(a.maxBodyBytes);
  if (a.requestView) out.route = routeStep(new Router(loadOperations()), compileRequestValidators(a.requestView));
  return out;
}
