/**
 * The hooks through which a mutant (a deliberately non-conformant variant of the mock; docs/maintainers.md,
 * "The self-test") changes the mock's behaviour. attach.ts turns them into app
 * options and stage hooks when a mutant is active; each mutant uses one or two of them to break
 * exactly one requirement.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Operation } from '../../contract/openapi.ts';
import type { HandlerMap } from '../http/context.ts';
import type { Outgoing } from '../http/send.ts';
import type { CursorChecks } from '../paging/cursor.ts';
import type { ApiKey } from '../store/types.ts';
import type { World } from '../store/world.ts';
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

export interface Mutation {
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
  /** Changes the target profile the mock publishes (mock/variants: what a vendor could provision). */
  profile?(profile: ProfileJson): ProfileJson;
}

/** A named deviation that breaks one requirement of the catalog. */
export interface Mutant {
  name: string;
  /** The requirement the mutant breaks; a test of it must fail. */
  requirement: string;
  /** What the mutant does, in words. */
  description: string;
  /**
   * Other requirements whose tests provoke the situation the mutant breaks, when the requirement is
   * proved by a universal check rather than its own tests (a 429 arises only in the rate-limit tests).
   */
  reachedBy?: string[];
  /**
   * One deviation applied to every operation (./broad.ts): the self-test runs the whole suite against it,
   * not only the tests of `requirement`, and expects one root cause.
   */
  broad?: boolean;
  /**
   * The requirements whose statement gives the rule the mutant breaks (default: `requirement` alone). A
   * failed `must` outside them counts toward the mutant's blast radius.
   */
  states?: string[];
  mutation: Mutation;
}
