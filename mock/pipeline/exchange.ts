/**
 * One request on its way through the stages (stages.ts): what each stage learns is kept here, and the
 * handler receives it as its Context (http/context.ts). The URL is split once, on arrival (a hook that
 * rewrites it splits again); fields a stage has not reached yet are undefined (the type says otherwise
 * only for what handlers read).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Operation } from '../../contract/openapi.ts';
import type { FieldError, RequestValidator } from '../../contract/validators.ts';
import type { Context } from '../http/context.ts';
import type { CursorCodec } from '../http/cursor.ts';
import type { Org } from '../store/org.ts';
import type { ApiKey } from '../store/types.ts';
import type { World } from '../store/world.ts';
import type { RateDecision } from '../http/send.ts';

export class Exchange implements Context {
  // What a handler reads (Context).
  world!: World;
  org!: Org;
  key!: ApiKey;
  op!: Operation;
  params: Record<string, unknown> = EMPTY_PARAMS;
  query: Record<string, string[]> = EMPTY_QUERY;
  body: unknown = undefined;
  raw?: Buffer = undefined;
  contentType?: string = undefined;
  origin = '';
  cursors!: CursorCodec;
  now = 0;
  // What only the stages read.
  /** The request path, `/v1` included, without the query string. */
  path = '/';
  /** The query string without `?` ('' when there is none). */
  search = '';
  /** The budget decision of the rate-limit stage (its headers go on successes). */
  rate?: RateDecision = undefined;
  validator?: RequestValidator = undefined;
  /** Parameter errors, thrown by the validate stage once authorization has passed. */
  paramErrors: FieldError[] = NO_ERRORS;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    /** The request's id (X-Request-ID); an alteration may replace it before onRequest (hooks/attach.ts). */
    public requestId: string,
  ) {
    this.splitUrl();
  }

  /** The request method (`GET` when node:http has none). */
  get method(): string {
    return this.req.method ?? 'GET';
  }

  /** The routed operation's id, once the route stage has found it. */
  get operationId(): string | undefined {
    return this.op?.operationId;
  }

  /** Splits `req.url` into `path` and `search` (again after a hook rewrote `req.url`). */
  splitUrl(): void {
    const url = this.req.url ?? '/';
    const q = url.indexOf('?');
    this.path = q === -1 ? url : url.slice(0, q);
    this.search = q === -1 ? '' : url.slice(q + 1);
  }
}

const EMPTY_PARAMS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;
const EMPTY_QUERY: Record<string, string[]> = Object.freeze({}) as Record<string, string[]>;
const NO_ERRORS: FieldError[] = Object.freeze([]) as unknown as FieldError[];
