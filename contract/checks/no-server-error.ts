/** No 5xx, for any request, valid or malformed (SPEC-004). */
import type { Check } from './types.ts';

export const noServerError: Check = {
  name: 'noServerError',
  requirement: 'SPEC-004',
  run: (x) => (x.status >= 500 ? [{ message: `${x.method} ${x.path} answered ${x.status}`, rule: `answers ${x.status}` }] : []),
};
