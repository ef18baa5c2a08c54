/**
 * `X-Request-ID` on every response (Limits › response headers: "every response, including 204 and
 * errors"): on successes, 204 included (REQID-001), and on errors (REQID-002), each kept apart so a
 * failure names its requirement; and never repeated (REQID-004: it is a correlation id).
 */
import type { Check } from './types.ts';
import type { Exchange } from '../exchange.ts';

function missingId(x: Exchange): string[] {
  const id = x.responseHeaders['x-request-id'];
  return id && id.trim() !== '' ? [] : [`${x.status} response to ${x.method} ${x.path} has no X-Request-ID`];
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
    if (state.requestIds.has(id)) return [`X-Request-ID ${id} was already used by an earlier response`];
    state.requestIds.add(id);
    return [];
  },
};
