/**
 * The JSON body validates against the schema documented for the operation and status, in the stated
 * view (SPEC-002; SPEC-005 for operations whose route is inferred).
 */
import type { Check } from './types.ts';
import { responseValidator } from '../spec-index.ts';

export const schemaValid: Check = {
  name: 'schemaValid',
  requirement: 'SPEC-002',
  inferredRequirement: 'SPEC-005',
  run(x) {
    const op = x.operation;
    if (!op || x.json === undefined) return [];
    const v = responseValidator(op, x.status);
    if (!v?.bodyErrors) return [];
    // The rule without operation, status or array index: one field wrong in every response is one root cause.
    return v.bodyErrors(x.json).slice(0, 5).map((e) => ({ message: `${op.operationId} ${x.status} body: ${e.message}`, at: e.pointer || '/', rule: `body ${e.message.replace(/\/\d+(?=\/|\s|$)/g, '')}` }));
  },
};
