/** Every header the description documents for the operation's response is present and valid (SPEC-006). */
import type { Check } from './types.ts';
import { responseValidator } from '../lib/spec-index.ts';

export const documentedHeaders: Check = {
  name: 'documentedHeaders',
  requirement: 'SPEC-006',
  run(x) {
    const op = x.operation;
    if (!op) return [];
    const v = responseValidator(op, x.status);
    if (!v) return [];
    const problems: string[] = [];
    for (const [name, h] of Object.entries(v.headers)) {
      const value = x.responseHeaders[name];
      if (value === undefined) {
        if (h.required) problems.push(`${x.status} response lacks documented header ${name}`);
        continue;
      }
      for (const m of h.validate(value)) problems.push(`header ${name}: ${value} ${m.replace('(root) ', '')}`);
    }
    return problems;
  },
};
