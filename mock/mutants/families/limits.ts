/** Mutants of the self-test (docs/maintainers.md, "The self-test"): rate limits, request ids. */
import { editJson } from '../../hooks/edit.ts';
import { isError } from '../helpers.ts';
import type { Mutant } from '../mutant.ts';

export const limitsMutants: Mutant[] = [
  // ── rate limits ──
  { name: 'test-bucket-1000', requirement: 'RATE-002', description: 'sk_test_ keys get 1,000 requests per minute.', mutation: { rateLimits: { test: 1000 } } },
  { name: 'remaining-constant', requirement: 'RATE-003', description: 'X-RateLimit-Remaining does not decrease.',
    mutation: { response: (out) => { if (out.headers['X-RateLimit-Remaining'] !== undefined) out.headers['X-RateLimit-Remaining'] = String(Number(out.headers['X-RateLimit-Limit']) - 1); return out; } } },
  { name: 'reset-an-hour-ahead', requirement: 'RATE-004', description: 'X-RateLimit-Reset is an hour after the window.',
    mutation: { response: (out) => { if (out.headers['X-RateLimit-Reset'] !== undefined) out.headers['X-RateLimit-Reset'] = String(Number(out.headers['X-RateLimit-Reset']) + 3600); return out; } } },
  { name: 'retry-after-missing', requirement: 'RATE-005', description: '429 carries no Retry-After.',
    mutation: { response: (out) => { if (out.status === 429) delete out.headers['Retry-After']; return out; } } },
  { name: 'shared-bucket', requirement: 'RATE-006', description: "All keys of an organization share one bucket.", mutation: { rateBucket: (key) => key.orgId } },
  { name: 'rate-headers-missing-on-204', requirement: 'RATE-008', description: '204 responses carry no X-RateLimit headers.',
    mutation: { response: (out) => { if (out.status === 204) for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) delete out.headers[h]; return out; } } },

  // ── request ids ──
  { name: 'request-id-missing-on-success', requirement: 'REQID-001', description: '2xx responses carry no X-Request-ID.',
    mutation: { response: (out) => { if (out.status < 300) delete out.headers['X-Request-ID']; return out; } } },
  { name: 'request-id-missing-on-error', requirement: 'REQID-002', description: 'Error responses carry no X-Request-ID.',
    mutation: { response: (out) => { if (isError(out.status)) delete out.headers['X-Request-ID']; return out; } } },
  { name: 'problem-request-id-differs', requirement: 'REQID-003', description: "A problem's request_id is not the header's.",
    mutation: { response: (out) => (isError(out.status) ? editJson(out, (b) => { b.request_id = `${b.request_id}-x`; }) : out) } },
  { name: 'request-id-reused', requirement: 'REQID-004', description: 'Every response carries the same X-Request-ID.', mutation: { requestId: () => 'req_always_the_same' } },
];
