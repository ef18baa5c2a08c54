/**
 * The status is one the description lists for the operation, or a cross-cutting one every operation can
 * give: 401 (Authentication), 403 (scopes, modules), 429 (rate limits) (SPEC-001; SPEC-005 for operations
 * whose route is inferred). Two requests are outside the operation's contract and not judged here: a
 * URL whose path is not valid percent-encoding (RFC 3986; any HTTP server may refuse it with 400), and a
 * JSON write sent with another Content-Type, which breaks the client's obligation (What the service
 * does: "Content-Type: application/json is sent on JSON writes"; its 415 is judged by ERR-010). A
 * success status the description does not give an operation (every documented 2xx of it inferred,
 * contract/provenance.ts) fails only SPEC-005.
 */
import type { Check } from './types.ts';
import type { Exchange } from '../exchange.ts';
import { provenanceOf, type Provenance } from '../provenance.ts';

const CROSS_CUTTING = new Set([401, 403, 429]);

/** Whether the request path is not valid percent-encoding. */
function malformedPath(x: Exchange): boolean {
  try {
    decodeURIComponent(x.path);
    return false;
  } catch {
    return true;
  }
}

/** Whether the request sent a body to a JSON operation with a Content-Type that is not JSON. */
function nonJsonWrite(x: Exchange): boolean {
  if (!x.operation?.requestBody?.mediaTypes.includes('application/json') || x.requestBody === undefined) return false;
  const type = Object.entries(x.requestHeaders).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  return !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type);
}

/** Inferred when the answer is a 2xx and the operation's documented 2xx statuses are all inferred. */
function successProvenance(x: Exchange): Provenance | undefined {
  const op = x.operation!;
  const success = op.responses.filter((r) => r.status < 300);
  if (x.status >= 300 || success.length === 0) return undefined;
  const inferred = success.map((r) => provenanceOf(op, `/responses/${r.status}`)).find((p) => p.level === 'inferred');
  return success.every((r) => provenanceOf(op, `/responses/${r.status}`).level === 'inferred') ? inferred : undefined;
}

export const statusDocumented: Check = {
  name: 'statusDocumented',
  requirement: 'SPEC-001',
  inferredRequirement: 'SPEC-005',
  run(x) {
    const op = x.operation;
    if (!op || x.status >= 500 || CROSS_CUTTING.has(x.status)) return [];
    if (op.responses.some((r) => r.status === x.status)) return [];
    if ((x.status === 400 && malformedPath(x)) || (x.status === 415 && nonJsonWrite(x))) return [];
    // The rule without the operation: one status remapped on every operation is one root cause. A success
    // answered where the operation documents one success status pairs the two, as a test's status
    // assertion would ("answers 200 instead of 201"); another undocumented status stands alone.
    const successes = op.responses.filter((r) => r.status >= 200 && r.status < 300);
    const rule = x.status < 300 && successes.length === 1 ? `answers ${x.status} instead of ${successes[0]!.status}` : `answers ${x.status}, not documented for the operation`;
    const message = `${op.operationId} answered ${x.status}, which is not documented (documented: ${op.responses.map((r) => r.status).join(', ')})`;
    const provenance = successProvenance(x);
    return [provenance ? { message, at: 'status', rule, provenance } : { message, rule }];
  },
};
