/**
 * `other-success-statuses` (docs/freedoms.md): where the description states no success status, another
 * one. Operations marked `x-inferred` (their "paths, methods and bodies: not shown"): a POST answering
 * 201 answers 200 and one answering 200 answers 201; a DELETE answers 200 instead of 204. Bodies stay.
 * Not yet the work-order parts command ("Response body and full error list of the POST: not shown"):
 * the suite still holds it to the spec's 200 in `must` checks (statusDocumented, SPEC-007, the scope
 * matrix) until those read the status's provenance.
 */
import { loadOperations } from '../../contract/openapi.ts';
import type { Alteration } from '../hooks/alteration.ts';

const INFERRED = new Map<string, string>(loadOperations().filter((o) => o.inferred).map((o) => [o.operationId, o.method]));

/** The status this variant answers for `status` of operation `id` (the same when it changes nothing). */
export function otherSuccessStatus(id: string | undefined, status: number): number {
  if (!id) return status;
  const method = INFERRED.get(id);
  if (method === 'POST') return status === 201 ? 200 : status === 200 ? 201 : status;
  if (method === 'DELETE' && status === 204) return 200;
  return status;
}

export const otherSuccessStatuses: Alteration = {
  response: (out, request) => {
    const status = otherSuccessStatus(request.operationId, out.status);
    return status === out.status ? out : { ...out, status };
  },
};
