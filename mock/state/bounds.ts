/**
 * Bounds of a state document beyond its schema (docs/integrators.md, "Reliability"): what the control
 * routes bound when they change the state, a document that sets the state directly is bounded the same
 * way, so no imported state can break the clock, the id counters or the server's stack.
 * - nesting depth at most STATE_MAX_DEPTH (a 5,000-deep record would overflow the stack when cloned);
 * - every number finite and a safe integer's size at most;
 * - the clock's advance at most MAX_TOTAL_ADVANCE_MS (the total `POST /__mock/clock/advance` allows);
 * - id counters at most MAX_ID_COUNTER (ids hold 9 base-36 digits of it);
 * - key and stock-movement times (`revokedAt`, `expiresAt`, `at`) at most MAX_TIME_MS;
 * - organization ids unique (two parts with one id would be merged silently).
 * The walk is iterative: it never recurses, whatever the depth.
 */

/** The deepest nesting of a state document (objects and arrays), the document itself being depth 1. */
export const STATE_MAX_DEPTH = 64;
/** The furthest one `clock/advance` may move time (10 years) and all advances together (100 years), in ms. */
export const MAX_ADVANCE_MS = 10 * 366 * 24 * 3600 * 1000;
export const MAX_TOTAL_ADVANCE_MS = 10 * MAX_ADVANCE_MS;
/** The largest id counter: 9 base-36 digits. */
export const MAX_ID_COUNTER = 36 ** 9 - 1;
/** The latest time a record may carry, in ms since the epoch (9999-12-31T23:59:59.999Z). */
export const MAX_TIME_MS = 253_402_300_799_999;

const TIME_MEMBERS = new Set(['revokedAt', 'expiresAt', 'at']);

/** The first bound `doc` breaks, as `{ pointer, message }`, or undefined. */
export function stateBoundsError(doc: unknown): { pointer: string; message: string } | undefined {
  const stack: Array<{ node: unknown; at: string; depth: number; name: string }> = [{ node: doc, at: '', depth: 1, name: '' }];
  while (stack.length) {
    const { node, at, depth, name } = stack.pop()!;
    if (typeof node === 'number') {
      const error = numberError(node, at, name);
      if (error) return { pointer: at || '/', message: error };
      continue;
    }
    if (!node || typeof node !== 'object') continue;
    if (depth > STATE_MAX_DEPTH) return { pointer: at, message: `nests deeper than ${STATE_MAX_DEPTH} levels` };
    for (const [k, v] of Object.entries(node)) stack.push({ node: v, at: `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth: depth + 1, name: k });
  }
  const orgs = (doc as { organizations?: unknown }).organizations;
  if (Array.isArray(orgs)) {
    const seen = new Set<unknown>();
    for (const [i, org] of orgs.entries()) {
      const id = (org as { id?: unknown } | null)?.id;
      if (seen.has(id)) return { pointer: `/organizations/${i}/id`, message: `repeats organization id ${String(id).slice(0, 64)}` };
      seen.add(id);
    }
  }
  return undefined;
}

function numberError(n: number, at: string, name: string): string | undefined {
  if (!Number.isFinite(n) || Math.abs(n) > Number.MAX_SAFE_INTEGER) return `must be a finite number of at most ${Number.MAX_SAFE_INTEGER} in size`;
  if (at === '/world/clockAdvancedMs' && n > MAX_TOTAL_ADVANCE_MS) return `must be at most ${MAX_TOTAL_ADVANCE_MS} (100 years, what POST /__mock/clock/advance allows in total)`;
  if (/^(\/world|\/organizations\/\d+)\/counters\/id$/.test(at) && n > MAX_ID_COUNTER) return `must be at most ${MAX_ID_COUNTER} (ids hold 9 base-36 digits of it)`;
  if (TIME_MEMBERS.has(name) && (n < 0 || n > MAX_TIME_MS)) return `must be a time from 0 to ${MAX_TIME_MS} ms since 1970`;
  return undefined;
}
