/**
 * `X-Request-ID` on every response (Limits › response headers: "every response, including 204 and
 * errors"): on successes, 204 included (REQID-001), and on errors (REQID-002), each kept apart so a
 * failure names its requirement; and never repeated (REQID-004: it is a correlation id).
 */
import type { Check, Finding } from './types.ts';
import type { Exchange } from '../exchange.ts';

/** The rule of an absent header, shared with documentedHeaders so that one missing header is one root cause. */
export const headerAbsent = (name: string) => `header ${name.toLowerCase()} absent`;

function missingId(x: Exchange): Finding[] {
  const id = x.responseHeaders['x-request-id'];
  return id && id.trim() !== '' ? [] : [{ message: `${x.status} response to ${x.method} ${x.path} has no X-Request-ID`, at: 'x-request-id', rule: headerAbsent('x-request-id') }];
}

export const requestIdOnSuccess: Check = {
  name: 'requestIdOnSuccess',
  requirement: 'REQID-001',
  run: (x) => (x.status < 400 ? missingId(x) : []),
};

export const requestIdOnError: Check = {
  name: 'requestIdOnError',
  requirement: 'REQID-002',
  run: (x) => (x.status >= 400 && x.status < 500 ? missingId(x) : []),
};

export const requestIdUnique: Check = {
  name: 'requestIdUnique',
  requirement: 'REQID-004',
  run(x, state) {
    const id = x.responseHeaders['x-request-id'];
    if (!id) return [];
    if (state.requestIds.has(id)) return [{ message: `X-Request-ID ${id} was already used by an earlier response`, at: 'x-request-id', rule: 'X-Request-ID repeated' }];
    state.requestIds.add(id);
    return [];
  },
};
