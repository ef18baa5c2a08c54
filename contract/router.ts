/**
 * Routing compiled from the spec's path templates: `match(method, path)` finds the operation and its
 * path parameters in time proportional to the number of path segments.
 *
 * Used by the mock to route requests and by the suite to know which operation a response answers.
 */
import type { Operation } from './openapi.ts';

/** A routed request: the operation and the raw (still percent-encoded) path parameters. */
export interface RouteMatch {
  operation: Operation;
  params: Record<string, string>;
}

/** The outcome of routing: a match, an unknown path (404), or a known path with another method (405). */
export type RouteResult =
  | { kind: 'match'; match: RouteMatch }
  | { kind: 'not_found' }
  | { kind: 'method_not_allowed'; allow: string[] };

interface Node {
  literal: Map<string, Node>;
  param?: { name: string; node: Node };
  operations: Map<string, Operation>;
}

const newNode = (): Node => ({ literal: new Map(), operations: new Map() });

/** A router over a fixed set of operations; build once, match per request. */
export class Router {
  private readonly root = newNode();

  constructor(operations: readonly Operation[]) {
    for (const op of operations) this.add(op);
  }

  private add(op: Operation): void {
    let node = this.root;
    for (const segment of op.path.split('/').slice(1)) {
      const param = /^\{(.+)\}$/.exec(segment);
      if (param) {
        node.param ??= { name: param[1]!, node: newNode() };
        if (node.param.name !== param[1]) throw new Error(`Conflicting path parameter names at ${op.path}`);
        node = node.param.node;
      } else {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode()));
        node = next;
      }
    }
    node.operations.set(op.method, op);
  }

  /**
   * Routes `method path` (path relative to the `/v1` base, without query string). Literal segments win
   * over parameters (`/identifiers/resolve` before `/identifiers/{id}`); empty segments never match.
   */
  match(method: string, path: string): RouteResult {
    const params: Record<string, string> = {};
    const node = this.walk(this.root, path.split('/'), 1, params);
    if (!node || node.operations.size === 0) return { kind: 'not_found' };
    const operation = node.operations.get(method);
    if (!operation) return { kind: 'method_not_allowed', allow: [...node.operations.keys()] };
    return { kind: 'match', match: { operation, params } };
  }

  private walk(node: Node, segments: string[], i: number, params: Record<string, string>): Node | undefined {
    if (i === segments.length) return node;
    const segment = segments[i]!;
    if (segment === '') return undefined;
    const literal = node.literal.get(segment);
    if (literal) {
      const found = this.walk(literal, segments, i + 1, params);
      if (found && found.operations.size > 0) return found;
    }
    if (node.param) {
      const found = this.walk(node.param.node, segments, i + 1, params);
      if (found) {
        params[node.param.name] = segment;
        return found;
      }
    }
    return undefined;
  }
}
