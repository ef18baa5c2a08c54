/**
 * `X-Request-ID` on every response, 204 and errors included (REQID-001, REQID-002), and never repeated
 * (REQID-004: it is a correlation id).
 */
import type { Check } from './registry.ts';

export const requestIdPresent: Check = {
  name: 'requestIdPresent',
  requirement: 'REQID-001',
  run(x) {
    if (x.status >= 500) return [];
    const id = x.responseHeaders['x-request-id'];
    return id && id.trim() !== '' ? [] : [`${x.status} response to ${x.method} ${x.path} has no X-Request-ID`];
  },
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
