/**
 * Content types: successful bodies are `application/json` and 204 has no body (SPEC-003); errors are
 * `application/problem+json` (ERR-001).
 */
import type { Check, Finding } from './types.ts';

/** A wrong Content-Type: one rule for successes and errors alike, so one deviation is one root cause. */
const wrongType = (message: string, type: string): Finding => ({ message, at: 'content-type', rule: `Content-Type ${type || '(none)'} where the description gives another` });

const media = (h: string | undefined) => (h ?? '').split(';')[0]!.trim().toLowerCase();

export const contentType: Check = {
  name: 'contentType',
  requirement: 'SPEC-003',
  run(x) {
    const type = media(x.responseHeaders['content-type']);
    if (x.status === 204) return x.responseBody.length > 0 ? ['204 carries a body'] : [];
    if (x.status < 400) {
      if (x.responseBody.length === 0) return [];
      return type === 'application/json' ? [] : [wrongType(`${x.status} has Content-Type "${type}", expected application/json`, type)];
    }
    return [];
  },
};

/** Errors are problem details (ERR-001); kept apart so its failures name ERR-001. */
export const problemContentType: Check = {
  name: 'problemContentType',
  requirement: 'ERR-001',
  run(x) {
    if (x.status < 400 || x.status >= 500) return [];
    const type = media(x.responseHeaders['content-type']);
    return type === 'application/problem+json' ? [] : [wrongType(`${x.status} has Content-Type "${type}", expected application/problem+json`, type)];
  },
};
