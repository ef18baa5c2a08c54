/**
 * Problem details on every error (Errors): the six fields with their types (ERR-002), `type` ending in
 * `/<code>` (ERR-003), `status` equal to the HTTP status (ERR-004), `request_id` equal to the
 * X-Request-ID header (REQID-003); and one `{errors_url}` prefix for every type (ERR-005).
 * Each rule fails its own requirement.
 */
import type { Check, Finding } from './types.ts';

function problem(x: { status: number; json?: unknown }): Record<string, unknown> | undefined {
  return x.status >= 400 && x.status < 500 && x.json && typeof x.json === 'object' ? (x.json as Record<string, unknown>) : undefined;
}

export const problemDetails: Check = {
  name: 'problemDetails',
  requirement: 'ERR-002',
  run(x) {
    if (x.status < 400 || x.status >= 500) return [];
    const p = problem(x);
    if (!p) return [{ message: `${x.status} response to ${x.method} ${x.path} has no problem-details body`, rule: 'error without a problem-details body' }];
    const problems: Finding[] = [];
    for (const f of ['type', 'title', 'detail', 'request_id', 'code']) if (typeof p[f] !== 'string') problems.push({ message: `problem field ${f} is ${JSON.stringify(p[f])}, not a string`, at: `/${f}`, rule: `problem field ${f} is not a string` });
    if (!Number.isInteger(p.status)) problems.push({ message: `problem field status is ${JSON.stringify(p.status)}, not an integer`, at: '/status', rule: 'problem field status is not an integer' });
    return problems;
  },
};

export const problemTypeMatchesCode: Check = {
  name: 'problemTypeMatchesCode',
  requirement: 'ERR-003',
  run(x) {
    const p = problem(x);
    if (!p || typeof p.type !== 'string' || typeof p.code !== 'string') return [];
    return p.type.endsWith(`/${p.code}`) ? [] : [{ message: `problem type ${p.type} does not end with /${p.code}`, at: '/type', rule: 'problem type does not end with /<code>' }];
  },
};

export const problemStatusMatches: Check = {
  name: 'problemStatusMatches',
  requirement: 'ERR-004',
  run(x) {
    const p = problem(x);
    if (!p || p.status === undefined) return [];
    return p.status === x.status ? [] : [{ message: `problem status ${JSON.stringify(p.status)} differs from the HTTP status ${x.status}`, at: '/status', rule: 'problem status differs from the HTTP status' }];
  },
};

export const problemRequestId: Check = {
  name: 'problemRequestId',
  requirement: 'REQID-003',
  run(x) {
    const p = problem(x);
    if (!p) return [];
    const header = x.responseHeaders['x-request-id'];
    // Without the header there is nothing to equal: its absence is REQID-002's (requestIdOnError).
    if (header === undefined) return [];
    return p.request_id === header ? [] : [{ message: `problem request_id ${JSON.stringify(p.request_id)} differs from X-Request-ID ${JSON.stringify(header)}`, at: '/request_id', rule: 'problem request_id differs from X-Request-ID' }];
  },
};

export const errorsUrlShared: Check = {
  name: 'errorsUrlShared',
  requirement: 'ERR-005',
  run(x, state) {
    const p = problem(x);
    if (!p || typeof p.type !== 'string' || typeof p.code !== 'string' || !p.type.endsWith(`/${p.code}`)) return [];
    const prefix = p.type.slice(0, -p.code.length - 1);
    state.errorsUrl ??= prefix;
    return prefix === state.errorsUrl ? [] : [{ message: `problem type prefix ${prefix} differs from ${state.errorsUrl} seen before`, at: '/type', rule: 'problem type prefix ({errors_url}) varies' }];
  },
};
