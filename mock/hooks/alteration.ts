/**
 * The hooks through which a mutant (a deliberately non-conformant variant of the mock; docs/maintainers.md,
 * "The self-test") or a variant (docs/freedoms.md) changes the mock's behaviour. attach.ts turns them into app
 * options and stage hooks when a mutant is active; each mutant uses one or two of them to break
 * exactly one requirement.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Operation } from '../../contract/openapi.ts';
import type { HandlerMap } from '../http/context.ts';
import type { Outgoing } from '../http/send.ts';
import type { CursorChecks } from '../http/cursor.ts';
import type { ApiKey } from '../store/types.ts';
import type { World } from '../store/world.ts';
import type { SchemaView } from '../../contract/schema-view.ts';
import type { ProfileJson } from '../profile.ts';

/** What a response hook knows of the request it answers. */
export interface RequestInfo {
  method: string;
  /** The request path, `/v1` included, without query string. */
  path: string;
  /** The query string, without `?`. */
  search: string;
  /** The routed operation, when the request reached one. */
  operationId?: string;
}

export interface Alteration {
  /** Rewrites the request line and headers before the pipeline sees them. Returns the new URL. */
  request?(method: string, url: string, headers: IncomingHttpHeaders): string;
  /** Rewrites a parsed JSON body before it is validated. */
  body?(operationId: string, body: unknown): unknown;
  /** Changes a response before it is written. */
  response?(out: Outgoing, request: RequestInfo): Outgoing;
  /** Replaces handlers, usually by wrapping the originals. */
  handlers?(original: HandlerMap): HandlerMap;
  /** Cursor binding checks to switch off. */
  cursorChecks?: Partial<CursorChecks>;
  /** Rate-limit budgets by key prefix. */
  rateLimits?: Partial<Record<'live' | 'test', number>>;
  /** The rate-limit bucket of a key (default: the key itself). */
  rateBucket?(key: ApiKey): string;
  /** Whether a key passes an operation's scope check (default: it holds exactly that scope). */
  scopeAllows?(op: Operation, key: ApiKey): boolean;
  /** Whether an operation's module checks are skipped. */
  skipModule?(op: Operation): boolean;
  /** Replaces the request-id generator. */
  requestId?(next: () => string): string;
  /** Changes the world after it is built (and after every reset). */
  world?(world: World): void;
  /** The largest request body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** The view of the spec requests are validated in (default `full`; `stated`: only what the description states). */
  requestView?: SchemaView;
  /** Changes the target profile the mock publishes (mock/variants: what a vendor could provision). */
  profile?(profile: ProfileJson): ProfileJson;
}
