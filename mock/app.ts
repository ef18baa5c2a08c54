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
import { byteLengthOf, failure, success, write, writeApiSuccess, type Outgoing } from './http/send.ts';
import { socketAnswers, type SocketAnswers } from './http/socket-answers.ts';
import { CursorCodec, type CursorChecks } from './paging/cursor.ts';
import { authenticateStep } from './pipeline/authenticate.ts';
import { CORS_HEADERS, addCorsHeaders, withPreflight } from './pipeline/cors.ts';
import { authorizeStep, moduleCheck, type AuthorizePolicy } from './pipeline/authorize.ts';
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

/** How the app is built. Everything but `buildWorld` replaces a default of the API's rules. */
export interface AppOptions extends AuthorizePolicy {
  /** Builds a fresh world (at start and on reset). */
  buildWorld: () => World;
  /** Changes every world built (at start and after every reset). */
  onWorld?(world: World): void;
  /** The handlers by operationId (default: mock/handlers). */
  handlers?: HandlerMap;
  /** Rate-limit budgets by key prefix (default: pipeline/rate-limit.ts LIMITS). */
  rateLimits?: Partial<Record<'live' | 'test', number>>;
  /** The rate-limit bucket of a key (default: the key itself). */
  rateBucket?(key: ApiKey): string;
  /** Cursor binding checks to switch off. */
  cursorChecks?: Partial<CursorChecks>;
  /** The largest request body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** The view of the spec requests are validated in (contract/schema-view.ts; default `full`, the mock's inferred rules too). */
  requestView?: SchemaView;
  /** Replaces the request-id generator. */
  requestId?(next: () => string): string;
  /** CORS on the API (pipeline/cors.ts; default true). */
  cors?: boolean;
  /**
   * Stages whose own work a persistent state store replaces (mock/state/persistence.ts), given the
   * defaults; the memory store replaces none, so its requests run exactly the default stages.
   */
  stages?(defaults: Readonly<StageWork>, tools: StageTools): Partial<StageWork>;
}

/** What a replacing stage may use: the app, its handlers, its reply, its rate-limit budgets and bucket. */
export interface StageTools {
  app: MockApp;
  handlers: HandlerMap;
  reply(ex: Exchange, reply: Reply): void;
  limits: Record<'live' | 'test', number>;
  bucket(key: ApiKey): string;
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
  private readonly prism: PrismStep;
  private readonly extensions = new Map<string, StageHooks>();
  private steps: Step[];
  private onSend?: SendHook;
  private readonly cors: boolean;

  constructor(private readonly options: AppOptions) {
    this.cors = options.cors !== false;
    this.world = this.built(options.buildWorld());
    this.limiter = new RateLimiter(() => this.world.clock.now(), { ...LIMITS, ...options.rateLimits });
    this.cursors = this.codec();
    const ids = new RequestIds();
    const custom = options.requestId;
    this.nextRequestId = custom ? () => custom(() => ids.next()) : () => ids.next();
    const handlers = options.handlers ?? defaultHandlers;
    const modules = moduleCheck(options);
    this.work = {
      onRequest: onRequestStep(() => this.control),
      apiPrefix: this.cors ? withPreflight(apiPrefixStep, this.send) : apiPrefixStep,
      authenticate: authenticateStep(() => this.world),
      rateLimit: rateLimitStep(this.limiter, options.rateBucket),
      route: routeStep(new Router(loadOperations()), compileRequestValidators(options.requestView ?? 'full')),
      authorize: authorizeStep(options, modules),
      validate: validateStep(() => this.cursors, () => this.origin),
      prism: (this.prism = prismStep(handlers, this.send, options.maxBodyBytes)),
      readBody: readBodyStep(options.maxBodyBytes),
      validateBody: validateBodyStep(modules),
      handle: handleStep(handlers, this.reply),
    };
    if (options.stages) {
      const limits = { ...LIMITS, ...options.rateLimits };
      const bucket = options.rateBucket ?? ((key: ApiKey) => key.id);
      Object.assign(this.work, options.stages({ ...this.work }, { app: this, handlers, reply: this.reply, limits, bucket }));
    }
    this.steps = compileStages(this.work, []);
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
    this.limiter.clear();
    this.cursors = this.codec();
  }

  /**
   * Registers (or replaces, keeping its place) the hooks of extension `name`; no hooks means no cost.
   * Extensions' hooks run in the order the extensions were first registered.
   */
  extend(name: string, hooks: StageHooks): void {
    this.extensions.set(name, hooks);
    this.steps = compileStages(this.work, this.extensions.values());
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

  private codec(): CursorCodec {
    return new CursorCodec(this.world.cursorSecret, () => this.world.clock.now(), this.options.cursorChecks);
  }

  /** The node:http request listener. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    runSteps(this.steps, new Exchange(req, res, this.nextRequestId()), 0, this.fail);
  };

  /**
   * A handler's reply, with the rate-limit headers on a success. The usual success (a text body or a
   * list page, no extra headers, CORS on, no onSend hook, no request body left to drain) is written at
   * once by `writeApiSuccess`, with the same bytes as the general way through `send`.
   */
  private readonly reply = (ex: Exchange, reply: Reply): void => {
    const rate = reply.status < 300 ? ex.rate : undefined;
    // A list page's chunks first: its `body` would join them into one string.
    const body = reply.chunks ?? reply.body;
    if (rate !== undefined && body !== undefined && reply.headers === undefined && this.cors && this.onSend === undefined && (!announcesBody(ex.req) || ex.req.readableEnded)) {
      const bytes = reply.bodyBytes ?? byteLengthOf(body);
      writeApiSuccess(ex.res, ex.requestId, reply.status, body, bytes, rate, CORS_HEADERS);
      return;
    }
    this.send(ex, success(ex.requestId, reply.status, body, rate, reply.headers));
  };

  /** Writes a response after the `onSend` hooks, once the request body nobody read has arrived (body.ts `drained`). */
  private readonly send = (ex: Exchange, out: Outgoing): void => {
    if (this.cors) addCorsHeaders(out, ex);
    const final = this.onSend ? this.onSend(out, ex) : out;
    const req = ex.req;
    if (!announcesBody(req) || req.readableEnded) write(ex.res, final);
    else drained(req).then(() => write(ex.res, final));
  };

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
