/**
 * The mock's request pipeline (design.md §4): request id → control API → `/v1` prefix →
 * authentication (401) → rate limit (429) → routing (404/405) → scope and module (403) → parameter and
 * body validation (400/413/415) → the operation's stateful handler, or Prism for `Prefer` requests →
 * problem details for every error, also for what node:http would answer itself (unparsable requests,
 * CONNECT, `Expect`, a missing Host). Validators and the router are compiled once, at construction;
 * Prism is loaded on the first request that may ask for it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { compileRequestValidators, type RequestValidator } from '../contract/validators.ts';
import { loadOperations, type Operation } from '../contract/openapi.ts';
import { Router } from '../contract/router.ts';
import { handlers as defaultHandlers } from './handlers/index.ts';
import type { Context, HandlerMap, Reply } from './http/context.ts';
import { announcesBody, drained, isJson, mediaType, parseJson, readBody } from './http/body.ts';
import { parseQuery } from './http/query.ts';
import { failure, rawResponse, success, write, type Outgoing } from './http/send.ts';
import { authenticate } from './pipeline/authenticate.ts';
import { modulesOfEntity, requireModule, requireOperationModule, requireScope } from './pipeline/authorize.ts';
import { ProblemError, invalid, validationError } from './http/problem.ts';
import { LIMITS, RateLimiter, type RateDecision } from './pipeline/rate-limit.ts';
import { RequestIds } from './pipeline/request-id.ts';
import { CursorCodec } from './paging/cursor.ts';
import type { Mutation } from './mutants/mutation.ts';
import type * as PrismModule from './prism/fallback.ts';
import type { ApiKey } from './store/types.ts';
import type { World } from './store/world.ts';
import { FaultInjector } from './control/faults.ts';

/** Handles `/__mock/...` requests (the control API); returns false when it does not know the path. */
export type ControlHandler = (req: IncomingMessage, res: ServerResponse, path: string, requestId: string) => boolean;

export interface AppOptions {
  /** Builds a fresh world (at start and on reset). */
  buildWorld: () => World;
  /** A deliberate deviation (the self-test's mutants, mock/mutants): consulted only when given. */
  mutation?: Mutation;
}

export class MockApp {
  world: World;
  readonly limiter: RateLimiter;
  cursors: CursorCodec;
  private readonly router = new Router(loadOperations());
  private readonly validators: Map<string, RequestValidator> = compileRequestValidators('full');
  private readonly requestIds = new RequestIds();
  /** mock/prism/fallback.ts, imported on the first request that may ask for Prism: loading it takes a second. */
  private prism?: Promise<{ wantsPrism: typeof PrismModule.wantsPrism; fallback: PrismFallback }>;
  private readonly handlers: HandlerMap;
  control?: ControlHandler;
  readonly faults = new FaultInjector();
  private readonly mutation?: Mutation;
  /** The operation each request was routed to, for the mutation's response hook only. */
  private readonly operationOf = new WeakMap<IncomingMessage, string>();
  /** Sockets answered outside node:http (clientError, CONNECT). */
  private readonly answered = new WeakSet<Duplex>();

  constructor(private readonly options: AppOptions) {
    const mutation = (this.mutation = options.mutation);
    this.world = this.built(options.buildWorld());
    this.limiter = new RateLimiter(() => this.world.clock.now(), { ...LIMITS, ...mutation?.rateLimits });
    this.cursors = new CursorCodec(this.world.cursorSecret, () => this.world.clock.now(), mutation?.cursorChecks);
    this.handlers = mutation?.handlers ? mutation.handlers(defaultHandlers) : defaultHandlers;
  }

  /** Rebuilds the world from its fixtures and forgets every rate-limit window. */
  reset(world: World = this.options.buildWorld()): void {
    this.world = this.built(world);
    this.limiter.clear();
    this.cursors = new CursorCodec(world.cursorSecret, () => this.world.clock.now(), this.mutation?.cursorChecks);
  }

  /** A world as the mutation (if any) has it. */
  private built(world: World): World {
    this.mutation?.world?.(world);
    return world;
  }

  /** A new request id (or the mutation's). */
  private nextRequestId(): string {
    const mutated = this.mutation?.requestId;
    return mutated ? mutated(() => this.requestIds.next()) : this.requestIds.next();
  }

  /** The node:http request listener. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (this.mutation?.request) req.url = this.mutation.request(req.method ?? 'GET', req.url ?? '/', req.headers);
    const requestId = this.nextRequestId();
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    try {
      // node:http would answer this itself, without problem details (the server sets requireHostHeader: false).
      if (req.headers.host === undefined && req.httpVersion === '1.1') throw invalid('header', 'Host', 'is required in HTTP/1.1');
      if (path.startsWith('/__mock/') && this.control?.(req, res, path, requestId)) return;
    } catch (error) {
      req.resume();
      this.fail(res, requestId, error);
      return;
    }
    const delay = this.faults.latency(path);
    if (delay > 0) setTimeout(() => this.process(req, res, requestId, url, q, path), delay);
    else this.process(req, res, requestId, url, q, path);
  };

  private process(req: IncomingMessage, res: ServerResponse, requestId: string, url: string, q: number, path: string): void {
    let rate: RateDecision | undefined;
    try {
      const fault = this.faults.decide(path);
      if (fault.kind === 'error') throw new ProblemError(fault.status, 'injected_fault', 'A fault injected through the mock control API.');
      if (fault.kind === 'rate_limited') throw new ProblemError(429, 'rate_limited', 'A 429 injected through the mock control API.', {}, { 'Retry-After': '1' });
      if (path !== '/v1' && !path.startsWith('/v1/')) {
        throw new ProblemError(404, 'not_found', `No route ${path}: the API lives under /v1.`);
      }
      const world = this.world;
      const now = world.clock.now();
      const key = authenticate(req.headers.authorization, world, now);
      rate = this.limiter.take(this.mutation?.rateBucket?.(key) ?? key.id, key.prefix);
      if (!rate.allowed) {
        throw new ProblemError(429, 'rate_limited', `This key spent its one-minute budget of ${rate.limit} requests.`, {}, { 'Retry-After': String(rate.retryAfter) });
      }
      const apiPath = path.slice(3);
      const route = this.router.match(req.method ?? 'GET', apiPath);
      if (route.kind === 'not_found') throw new ProblemError(404, 'not_found', `No route ${req.method} /v1${apiPath}.`);
      if (route.kind === 'method_not_allowed') {
        throw new ProblemError(405, 'method_not_allowed', `${req.method} is not allowed on /v1${apiPath}.`, {}, { Allow: route.allow.join(', ') });
      }
      const op = route.match.operation;
      if (this.mutation?.response) this.operationOf.set(req, op.operationId);
      const org = world.orgs.get(key.orgId)!;
      if (!this.mutation?.scopeAllows?.(op, key)) requireScope(op, key);
      if (!this.mutation?.skipModule?.(op)) requireOperationModule(op, org);
      const query = parseQuery(q === -1 ? '' : url.slice(q + 1));
      const validator = this.validators.get(op.operationId)!;
      const { values, errors } = validator.readParams(route.match.params, query);
      this.requireEntityModules(op, org, values, undefined);
      if (errors.length) throw validationError(errors);
      const ctx: Context = {
        world, org, key, op, params: values, query, body: undefined, requestId, now,
        origin: `http://${req.headers.host ?? '127.0.0.1'}`, cursors: this.cursors,
      };
      const prefer = req.headers.prefer as string | undefined;
      if (prefer !== undefined || (q !== -1 && mayNamePrism(url, q) && namesPrismQuery(query)) || !this.handlers[op.operationId]) {
        this.maybeViaPrism(req, res, ctx, validator, apiPath, prefer, rate);
        return;
      }
      this.viaHandler(req, res, ctx, validator, rate);
    } catch (error) {
      req.resume();
      this.fail(res, requestId, error);
    }
  }

  /** The operation's stateful handler, after reading and validating the body when it takes one. */
  private viaHandler(req: IncomingMessage, res: ServerResponse, ctx: Context, validator: RequestValidator, rate: RateDecision): void {
    if (ctx.op.requestBody) {
      this.withBody(req, res, ctx, validator, rate);
      return;
    }
    req.resume();
    this.reply(res, ctx.requestId, this.run(ctx), rate);
  }

  /** Loads Prism (once), then lets it answer if the request asks for it (or no handler exists). */
  private maybeViaPrism(req: IncomingMessage, res: ServerResponse, ctx: Context, validator: RequestValidator, apiPath: string, prefer: string | undefined, rate: RateDecision): void {
    this.loadPrism()
      .then(({ wantsPrism, fallback }) => {
        const asked = wantsPrism(prefer, ctx.query);
        if (asked || !this.handlers[ctx.op.operationId]) this.viaPrism(req, res, ctx, apiPath, rate, fallback, asked);
        else this.viaHandler(req, res, ctx, validator, rate);
      })
      .catch((error) => {
        req.resume();
        this.fail(res, ctx.requestId, error);
      });
  }

  private loadPrism(): Promise<{ wantsPrism: typeof PrismModule.wantsPrism; fallback: PrismFallback }> {
    this.prism ??= import('./prism/fallback.ts').then((module) => ({ wantsPrism: module.wantsPrism, fallback: new module.PrismFallback() }));
    return this.prism;
  }

  private run(ctx: Context): Reply {
    return this.handlers[ctx.op.operationId]!(ctx);
  }

  private withBody(req: IncomingMessage, res: ServerResponse, ctx: Context, validator: RequestValidator, rate: RateDecision): void {
    readBody(req, this.mutation?.maxBodyBytes)
      .then((raw) => {
        this.attachBody(ctx, validator, req, raw);
        this.reply(res, ctx.requestId, this.run(ctx), rate);
      })
      .catch((error) => this.fail(res, ctx.requestId, error));
  }

  /** Parses and validates the body into `ctx` (JSON operations), or keeps it raw (uploads). */
  private attachBody(ctx: Context, validator: RequestValidator, req: IncomingMessage, raw: Buffer): void {
    const op = ctx.op;
    const type = mediaType(req.headers['content-type']);
    ctx.contentType = type;
    if (!op.requestBody!.mediaTypes.includes('application/json')) {
      if (raw.length === 0 && op.requestBody!.required) throw invalid('body', '/', 'is required');
      ctx.raw = raw;
      return;
    }
    if (raw.length === 0) {
      if (op.requestBody!.required) throw invalid('body', '/', 'is required');
      return;
    }
    if (!isJson(type)) {
      throw new ProblemError(415, 'unsupported_media_type', `Send this body as application/json (got ${type ?? 'no Content-Type'}).`);
    }
    ctx.body = parseJson(raw);
    if (this.mutation?.body) ctx.body = this.mutation.body(op.operationId, ctx.body);
    const errors = validator.validateBody?.(ctx.body) ?? [];
    if (errors.length) throw validationError(errors);
    this.requireEntityModules(op, ctx.org, ctx.params, ctx.body);
  }

  /** The modules of the entities a request names (`x-module-of-entity`). */
  private requireEntityModules(op: Operation, org: Context['org'], params: Record<string, unknown>, body: unknown): void {
    if (this.mutation?.skipModule?.(op)) return;
    for (const module of modulesOfEntity(op, params, body)) requireModule(org, module);
  }

  /**
   * Prism's answer. When the request asked for it (`asked`), an answer Prism cannot produce (say, for an
   * `Accept` no documented response has) is the request's problem: 400 on its preference, never a 5xx.
   */
  private viaPrism(req: IncomingMessage, res: ServerResponse, ctx: Context, apiPath: string, rate: RateDecision, prism: PrismFallback, asked: boolean): void {
    const bodyPromise = ctx.op.requestBody ? readBody(req, this.mutation?.maxBodyBytes) : (req.resume(), Promise.resolve(Buffer.alloc(0)));
    bodyPromise
      .then((raw) => {
        let body: unknown = raw.length ? raw.toString('utf8') : undefined;
        if (raw.length && isJson(mediaType(req.headers['content-type']))) body = parseJson(raw);
        // A plain copy of the query (parseQuery's has no prototype, which Prism may not expect).
        return prism.respond(ctx.op, { method: req.method ?? 'GET', path: apiPath, query: { ...ctx.query }, headers: req.headers, body });
      })
      .then((out) => {
        const reply: Outgoing = success(ctx.requestId, out.status, out.body, out.status < 300 ? rate : undefined);
        if (out.contentType) reply.headers['Content-Type'] = out.contentType;
        this.send(res, reply);
      })
      .catch((error) => {
        const refused = asked && error instanceof ProblemError && error.status >= 500;
        this.fail(res, ctx.requestId, refused ? invalid('header', 'Prefer', `asks for an answer Prism cannot produce: ${error.detail}`) : error);
      });
  }

  private reply(res: ServerResponse, requestId: string, reply: Reply, rate: RateDecision): void {
    this.send(res, success(requestId, reply.status, reply.chunks ?? reply.body, reply.status < 300 ? rate : undefined, reply.headers));
  }

  /** Writes a response, once the request body nobody read has arrived (body.ts `drained`). */
  private send(res: ServerResponse, out: Outgoing): void {
    const final = this.finish(out, res.req);
    if (!announcesBody(res.req) || res.req.readableEnded) write(res, final);
    else drained(res.req).then(() => write(res, final));
  }

  /** Injected faults (dropped headers), then the mutation's response hook; nothing when neither is set. */
  private finish(out: Outgoing, req: IncomingMessage): Outgoing {
    const mutate = this.mutation?.response;
    if (!mutate && !this.faults.dropsHeaders) return out;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const stripped = this.faults.strip(out, path);
    if (!mutate) return stripped;
    return mutate(stripped, { method: req.method ?? 'GET', path, search: q === -1 ? '' : url.slice(q + 1), operationId: this.operationOf.get(req) });
  }

  /**
   * The server's `clientError`: a request node:http cannot parse (a bad method, URL or header byte,
   * headers over 16 KiB, a request too slow to arrive) still gets problem details, then the connection
   * closes.
   */
  readonly clientError = (error: NodeJS.ErrnoException, socket: Duplex): void => {
    if (this.answered.has(socket)) return; // node:http reports every later chunk too: it is discarded
    if (!socket.writable || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const problem = error.code === 'HPE_HEADER_OVERFLOW' ? new ProblemError(431, 'header_fields_too_large', 'The request headers exceed 16 KiB.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? new ProblemError(408, 'request_timeout', 'The request did not arrive in time.')
      : new ProblemError(400, 'validation_error', `The request is not well-formed HTTP/1.1 (${error.code ?? 'unparsable'}).`);
    this.lingeringEnd(socket, rawResponse(failure(this.nextRequestId(), problem)));
  };

  /** The server's `connect`: CONNECT is no method of the API; 405 problem details, then close. */
  readonly connect = (_req: IncomingMessage, socket: Duplex): void => {
    this.lingeringEnd(socket, rawResponse(failure(this.nextRequestId(), new ProblemError(405, 'method_not_allowed', 'CONNECT is not supported.'))));
  };

  /**
   * Answers and half-closes a socket node:http no longer serves, but keeps reading (and discarding) what
   * the client still sends for a while: closing at once would reset the connection and could lose the
   * answer.
   */
  private lingeringEnd(socket: Duplex, response: string): void {
    this.answered.add(socket);
    socket.on('data', () => {}).on('error', () => socket.destroy());
    socket.end(response);
    setTimeout(() => socket.destroy(), 5000).unref();
  }

  /** The server's `checkExpectation` (an `Expect` other than 100-continue): 417 problem details. */
  readonly expectation = (req: IncomingMessage, res: ServerResponse): void => {
    req.resume();
    this.fail(res, this.nextRequestId(), new ProblemError(417, 'expectation_failed', `Expect: ${req.headers.expect} is not supported.`));
  };

  private fail(res: ServerResponse, requestId: string, error: unknown): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (!(error instanceof ProblemError)) {
      process.stderr.write(`mock: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
      error = new ProblemError(500, 'internal_error', 'The mock failed unexpectedly; see its log.');
    }
    this.send(res, failure(requestId, error as ProblemError));
  }
}

type PrismFallback = PrismModule.PrismFallback;

/** A cheap pre-check on the raw query (from index `q`): `__`, possibly percent-encoded, occurs in it. */
function mayNamePrism(url: string, q: number): boolean {
  return url.includes('__', q) || url.includes('%5F', q) || url.includes('%5f', q);
}

/**
 * Whether the query names one of Prism's fallbacks (`__code`, `__example`, `__dynamic`, `__seed`; all
 * start with `__`): a necessary condition of `wantsPrism`, checked before Prism is loaded.
 */
function namesPrismQuery(query: Record<string, string[]>): boolean {
  for (const name in query) if (name.startsWith('__')) return true;
  return false;
}

export type { ApiKey, Operation };
