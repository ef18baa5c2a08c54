/**
 * What a handler receives for one request, and what it returns. Handlers are plain functions of a
 * Context (one per operation, grouped by family under handlers/); errors are thrown as ProblemError.
 */
import type { Operation, OperationId } from '../../contract/openapi.ts';
import type { ApiKey } from '../store/types.ts';
import type { Org } from '../store/org.ts';
import type { World } from '../store/world.ts';
import type { CursorCodec } from './cursor.ts';
import type { ChunkedJsonBody } from './chunked-json-body.ts';

export interface Context {
  world: World;
  org: Org;
  key: ApiKey;
  op: Operation;
  /** Path and query parameters, typed and validated against the spec. */
  params: Record<string, unknown>;
  /** The raw query: every value given for each name. */
  query: Record<string, string[]>;
  /** The parsed JSON body (validated against the spec), when the operation takes one. */
  body: unknown;
  /** The raw body of upload operations. */
  raw?: Buffer;
  /** The request's Content-Type, without parameters. */
  contentType?: string;
  requestId: string;
  /** `scheme://host` the request was addressed to, for absolute URLs such as `nextPageUrl`. */
  origin: string;
  cursors: CursorCodec;
  /** Now, in epoch ms, from the world's clock. */
  now: number;
}

/** A handler's answer: status, a serialized JSON body (or none), extra headers. */
export interface Reply {
  status: number;
  body?: string;
  /** List pages: the body in chunks (http/chunked-json-body.ts), sent as they are; `body` then reads them as text. */
  chunks?: ChunkedJsonBody;
  headers?: Record<string, string>;
  /** The body's length in UTF-8 bytes, when the reply knows it (envelope.ts `single`); else it is measured. */
  readonly bodyBytes?: number;
}

export type Handler = (ctx: Context) => Reply;

/** A family's handlers, keyed by operationId. */
export type HandlerMap = Record<OperationId, Handler>;

/** A family's handlers (mock/handlers/<family>.ts): keys must be operation ids of the spec. */
export type HandlerMapPart = Partial<HandlerMap>;
