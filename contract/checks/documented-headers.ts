/** Every header the description documents for the operation's response is present and valid (SPEC-006). */
import type { Check, Finding } from './types.ts';
import { headerAbsent } from './request-id.ts';
import { responseValidator } from '../spec-index.ts';

export const documentedHeaders: Check = {
  name: 'documentedHeaders',
  requirement: 'SPEC-006',
  run(x) {
    const op = x.operation;
    if (!op) return [];
    const v = responseValidator(op, x.status);
    if (!v) return [];
    const problems: Finding[] = [];
    for (const [name, h] of Object.entries(v.headers)) {
      const value = x.responseHeaders[name];
      if (value === undefined) {
        if (h.required) problems.push({ message: `${x.status} response lacks documented header ${name}`, at: name, rule: headerAbsent(name) });
        continue;
      }
      for (const m of h.validate(value)) problems.push({ message: `header ${name}: ${value} ${m.replace('(root) ', '')}`, at: name, rule: `header ${name} ${m.replace('(root) ', '')}` });
    }
    return problems;
  },
};
