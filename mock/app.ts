/**
 * The mock's request path (docs/design.md §4) as named stages (pipeline/stages.ts): onRequest (Host, the
 * control API) → apiPrefix (`/v1`; a CORS preflight is answered here, pipeline/cors.ts) → authenticate (401) → rateLimit (429) → route (404/405) →
 * authorize (scope and module, 403) → validate (400) → prism (`Prefer` requests) → readBody
 * (413/415/400) → validateBody (400, 403) → handle (the operation's stateful handler) → problem details
 * for every error, also for what node:http would answer itself (http/socket-answers.ts).
 *
 * Extensions attach hooks to stages from outside (`extend`: the control API's faults, the self-test's
 * mutants); the step list is rebuilt only when they change. Validators and the router are compiled
 * once, at construction.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { compileRequestValidators } from '../contract/validators.ts';
import { loadOperations, type Operation } from '../contract/openapi.ts';
import type { SchemaView } from '../contract/schema-view.ts';
import { Router } from '../contract/router.ts';
import { handlers as defaultHandlers } from './handlers/index.ts';
import type { HandlerMap, Reply } from './http/context.ts';
import { announcesBody, drained } from './http/body.ts';
import { ProblemError } from './http/problem.ts';
import { failure, outgoingOf, successHeaders, write, type Outgoing } from './http/send.ts';
import { socketAnswers, type SocketAnswers } from './http/socket-answers.ts';
import { CursorCodec, type CursorChecks } from './http/cursor.ts';
import { authenticateStep } from './pipeline/authenticate.ts';
import { CORS_HEADERS, addCorsHeaders, withPreflight } from './pipeline/cors.ts';
import { authorizeStep, moduleCheck, type AuthorizePolicy, type ModuleCheck } from './pipeline/authorize.ts';
import { Exchange } from './pipeline/exchange.ts';
import { handleStep } from './pipeline/handle.ts';
import { onRequestStep, type ControlHandler } from './pipeline/on-request.ts';
import { LIMITS, RateLimiter, rateLimitStep } from './pipeline/rate-limit.ts';
import { readBodyStep, validateBodyStep } from './pipeline/read-body.ts';
import { RequestIds } from './pipeline/request-id.ts';
import { apiPrefixStep, routeStep } from './pipeline/route.ts';
import { compileOnSend, compileStages, runSteps, type SendHook, type StageHooks, type StageWork, type Step } from './pipeline/stages.ts';
import { validateStep } from './pipeline/validate.ts';
import { prismStep, type PrismStep } from './prism/bridge.ts';
import type { ApiKey } from './store/types.ts';
import type { World } from './store/world.ts';

export type { ControlHandler };

/**
 * How the app is built. The API's rules have no options: what changes them (the self-test's mutants, the
 * variants of docs/freedoms.md) attaches through `extend`, as stage hooks or stage work of its own.
 */
export interface AppOptions {
  /** Builds a fresh world (at start and on reset). */
  buildWorld: () => World;
  /** Changes every world built (at start and after every reset). */
  onWorld?(world: World): void;
  /** The handlers by operationId (default: mock/handlers). */
  handlers?: HandlerMap;
  /** CORS on the API (pipeline/cors.ts; default true). */
  cors?: boolean;
  /**
   * Stages whose own work a persistent state store replaces (mock/state/persistence.ts), given the
   * defaults; the memory store replaces none, so its requests run exactly the default stages.
   */
  stages?(defaults: Readonly<StageWork>, tools: StageTools): Partial<StageWork>;
}

/** What replacing stage work may use (a state store's stages, an extension's `replace`). */
export interface StageTools {
  app: MockApp;
  handlers: HandlerMap;
  reply(ex: Exchange, reply: Reply): void;
  /** Writes a response through the onSend hooks (problem details, a `Prefer` answer). */
  send(ex: Exchange, out: Outgoing): void;
  /** The rate-limit budgets by key prefix (Limits: 1,000 live, 100 test) and the bucket of a key (the key itself). */
  limits: Readonly<Record<'live' | 'test', number>>;
  bucket(key: ApiKey): string;
  /** A rate limiter on the world's clock, forgotten on reset like the app's own. */
  limiter(limits: Readonly<Record<'live' | 'test', number>>): RateLimiter;
  /** The cursor codec of the current world with some binding checks off (an extension's cursors). */
  cursors(checks: Partial<CursorChecks>): () => CursorCodec;
  /** The module check of the authorize and validateBody stages, under a policy (pipeline/authorize.ts). */
  modules(policy: AuthorizePolicy): ModuleCheck;
}

export class MockApp {
  world: World;
  readonly limiter: RateLimiter;
  cursors: CursorCodec;
  /** The control API, when it is on (attached by server.ts). */
  control?: ControlHandler;
  /** The public origin (`http://host:port`) of absolute URLs such as `nextPageUrl`; never the request's Host. */
  origin = 'http://127.0.0.1';
  /** A new request id. */
  readonly nextRequestId: () => string;
  /** The server's `clientError`, `connect` and `checkExpectation` listeners. */
  readonly clientError: SocketAnswers['clientError'];
  readonly connect: SocketAnswers['connect'];
  readonly expectation: SocketAnswers['expectation'];
  private readonly work: StageWork;
  private readonly tools: StageTools;
  private readonly limiters: RateLimiter[] = [];
  private readonly prism: PrismStep;
  private readonly extensions = new Map<string, StageHooks<StageTools>>();
  private steps: Step[];
  private onSend?: SendHook;
  private readonly cors: boolean;

  constructor(private readonly options: AppOptions) {
    this.cors = options.cors !== false;
    this.world = this.built(options.buildWorld());
    this.limiter = this.newLimiter(LIMITS);
    this.cursors = this.codec();
    const ids = new RequestIds();
    this.nextRequestId = () => ids.next();
    const handlers = options.handlers ?? defaultHandlers;
    const modules = moduleCheck({});
    this.work = {
      onRequest: onRequestStep(() => this.control),
      apiPrefix: this.cors ? withPreflight(apiPrefixStep, this.send) : apiPrefixStep,
      authenticate: authenticateStep(() => this.world),
      rateLimit: rateLimitStep(this.limiter),
      route: routeStep(new Router(loadOperations()), compileRequestValidators('full')),
      authorize: authorizeStep({}, modules),
      validate: validateStep(() => this.cursors, () => this.origin),
      prism: (this.prism = prismStep(handlers, this.send)),
      readBody: readBodyStep(),
      validateBody: validateBodyStep(modules),
      handle: handleStep(handlers, this.reply),
    };
    this.tools = {
      app: this, handlers, reply: this.reply, send: this.send, limits: LIMITS, bucket: (key) => key.id,
      limiter: (limits) => this.newLimiter(limits),
      cursors: (checks) => {
        let made: { secret: unknown; codec: CursorCodec } | undefined;
        return () => (made?.secret === this.world.cursorSecret ? made.codec : (made = { secret: this.world.cursorSecret, codec: this.codec(checks) }).codec);
      },
      modules: (policy) => moduleCheck(policy),
    };
    if (options.stages) Object.assign(this.work, options.stages({ ...this.work }, this.tools));
    this.steps = compileStages(this.work, [], this.tools);
    const answers = socketAnswers(this.nextRequestId, (req, res, error) => this.fail(new Exchange(req, res, this.nextRequestId()), error));
    this.clientError = answers.clientError;
    this.connect = answers.connect;
    this.expectation = answers.expectation;
  }

  /** Loads Prism (the `Prefer` fallback) now; settles when loaded (a failure is reported by the first request that needs it). */
  preloadPrism(): Promise<void> {
    return this.prism.preload().then(() => undefined, () => undefined);
  }

  /** Rebuilds the world from its fixtures and forgets every rate-limit window. */
  reset(world: World = this.options.buildWorld()): void {
    this.world = this.built(world);
    for (const limiter of this.limiters) limiter.clear();
    this.cursors = this.codec();
  }

  /**
   * Registers (or replaces, keeping its place) the hooks of extension `name`; no hooks means no cost.
   * Extensions' hooks run in the order the extensions were first registered.
   */
  extend(name: string, hooks: StageHooks<StageTools>): void {
    this.extensions.set(name, hooks);
    this.steps = compileStages(this.work, this.extensions.values(), this.tools);
    this.onSend = compileOnSend(this.extensions.values());
  }

  private built(world: World): World {
    this.options.onWorld?.(world);
    return world;
  }

  /** Rebuilds the cursor codec from the world's current signing key (a state store loaded another one). */
  refreshCursors(): void {
    this.cursors = this.codec();
  }

  private codec(checks?: Partial<CursorChecks>): CursorCodec {
    return new CursorCodec(this.world.cursorSecret, () => this.world.clock.now(), checks);
  }

  /** A rate limiter on the world's clock, cleared with the app's own on reset. */
  private newLimiter(limits: Readonly<Record<'live' | 'test', number>>): RateLimiter {
    const limiter = new RateLimiter(() => this.world.clock.now(), { ...limits });
    this.limiters.push(limiter);
    return limiter;
  }

  /** The node:http request listener. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    runSteps(this.steps, new Exchange(req, res, this.nextRequestId()), 0, this.fail);
  };

  /**
   * A handler's reply: its headers built once (http/send.ts successHeaders: the rate-limit headers on a
   * success, CORS on the API), written as they are, or first made an Outgoing when onSend hooks (faults,
   * alterations) are registered.
   */
  private readonly reply = (ex: Exchange, reply: Reply): void => {
    // A list page's chunks first: its `body` would join them into one string.
    const body = reply.chunks ?? reply.body;
    const headers = successHeaders(ex.requestId, reply.status < 300 ? ex.rate : undefined, body !== undefined, this.cors ? CORS_HEADERS : undefined, reply.headers);
    if (this.onSend) this.writeOnce(ex, this.onSend(outgoingOf(reply.status, headers, body), ex));
    else this.writeOnce(ex, { status: reply.status, headers, body }, reply.bodyBytes);
  };

  /** Writes a response after the `onSend` hooks (CORS added on the API), once the request body nobody read has arrived. */
  private readonly send = (ex: Exchange, out: Outgoing): void => {
    if (this.cors) addCorsHeaders(out, ex);
    this.writeOnce(ex, this.onSend ? this.onSend(out, ex) : out);
  };

  /** The one way out (http/send.ts `write`): at once, or once the request body nobody read has arrived (body.ts `drained`). */
  private writeOnce(ex: Exchange, out: { status: number; headers: Outgoing['headers'] | string[]; body?: Outgoing['body'] }, bytes?: number): void {
    const req = ex.req;
    if (!announcesBody(req) || req.readableEnded) write(ex.res, out.status, out.headers, out.body, bytes);
    else drained(req).then(() => write(ex.res, out.status, out.headers, out.body, bytes));
  }

  /**
   * Problem details for an error (500 for anything but a ProblemError, logged). A client that went
   * away (aborted its request, reset the connection) is a disconnect: nothing to answer or log.
   */
  private readonly fail = (ex: Exchange, error: unknown): void => {
    ex.req.resume();
    if (disconnected(ex, error)) {
      ex.res.destroy();
      return;
    }
    if (ex.res.headersSent) {
      ex.res.destroy();
      return;
    }
    if (!(error instanceof ProblemError)) {
      process.stderr.write(`mock: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
      error = new ProblemError(500, 'internal_error', 'The mock failed unexpectedly; see its log.');
    }
    this.send(ex, failure(ex.requestId, error as ProblemError));
  };
}

/** Whether `error` is the client's disconnect (node:http's `aborted`, a reset socket) rather than a fault. */
function disconnected(ex: Exchange, error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || (ex.req.destroyed && !(error instanceof ProblemError));
}

export type { ApiKey, Operation };
