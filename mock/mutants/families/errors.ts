/** Mutants of the self-test (docs/maintainers.md, "The self-test"): problem details, conformance to the spec, generated requests. */
import { editJson, forOperations } from '../../hooks/edit.ts';
import { isError, partialPatchOnRefusal } from '../helpers.ts';
import type { Mutant } from '../mutant.ts';

export const errorsMutants: Mutant[] = [
  // ── problem details ──
  { name: 'errors-as-json', requirement: 'ERR-001', description: 'Errors are served as application/json.',
    mutation: { response: (out) => { if (out.status >= 400 && out.status < 500) out.headers['Content-Type'] = 'application/json'; return out; } } },
  { name: 'problem-without-title', requirement: 'ERR-002', description: 'Problem details lack title.',
    mutation: { response: (out) => (isError(out.status) ? editJson(out, (b) => { delete b.title; }) : out) } },
  { name: 'problem-type-without-code', requirement: 'ERR-003', description: 'The problem type does not end with the code.',
    mutation: { response: (out) => (isError(out.status) ? editJson(out, (b) => { b.type = `${b.type}/details`; }) : out) } },
  { name: 'problem-status-mismatch', requirement: 'ERR-004', description: "A 404 problem's status says 400.",
    mutation: { response: (out) => (out.status === 404 ? editJson(out, (b) => { b.status = 400; }) : out) } },
  { name: 'errors-url-varies', requirement: 'ERR-005', description: 'Problem types of 404s use another errors_url.',
    mutation: { response: (out) => (out.status === 404 ? editJson(out, (b) => { b.type = `https://elsewhere.invalid/errors/${b.code}`; }) : out) } },
  { name: 'validation-422', requirement: 'ERR-006', description: 'Validation failures answer 422.',
    mutation: { response: (out) => (out.status === 400 ? editJson({ ...out, status: 422 }, (b) => { b.status = 422; }) : out) } },
  { name: 'malformed-json-415', requirement: 'ERR-007', description: 'A malformed JSON body answers 415 instead of 400 validation_error.',
    mutation: { response: (out) => (out.status === 400 && String(out.body).includes('not well-formed JSON') ? editJson({ ...out, status: 415 }, (b) => { b.status = 415; b.code = 'unsupported_media_type'; b.type = b.type.replace(/validation_error$/, 'unsupported_media_type'); }) : out) } },

  // ── conformance to the spec ──
  { name: 'get-meter-203', requirement: 'SPEC-001', description: 'GET /meters/{id} answers 203.', mutation: { response: forOperations(['getMeter'], (out) => (out.status === 200 ? { ...out, status: 203 } : out)) } },
  { name: 'meter-is-active-string', requirement: 'SPEC-002', description: 'Meters carry is_active as a string.',
    mutation: { response: forOperations(['getMeter', 'listMeters', 'createMeter'], (out) => editJson(out, (b) => { for (const m of [b.data].flat()) if (m && 'is_active' in m) m.is_active = String(m.is_active); })) } },
  { name: 'success-as-text', requirement: 'SPEC-003', description: 'Successful bodies are served as text/plain.',
    mutation: { response: (out) => { if (out.status < 300 && out.body !== undefined) out.headers['Content-Type'] = 'text/plain'; return out; } } },
  { name: 'server-error-on-bad-limit', requirement: 'SPEC-004', description: 'A non-numeric limit crashes the list with 500.',
    mutation: { response: (out, req) => (out.status === 400 && /(^|&)limit=[^&0-9-]/.test(req.search) ? editJson({ ...out, status: 500 }, (b) => { b.status = 500; b.code = 'internal_error'; }) : out) } },
  { name: 'retry-after-not-integer', requirement: 'SPEC-006', description: 'Retry-After is a date instead of seconds.', reachedBy: ['RATE-005'],
    mutation: { response: (out) => { if (out.status === 429) out.headers['Retry-After'] = new Date(Date.now() + 60_000).toUTCString(); return out; } } },

  // ── generated requests ──
  { name: 'refused-patch-applies-valid-members', requirement: 'GEN-002', description: 'A work-order PATCH refused with 400 still applies its valid members (and updated_at).',
    mutation: partialPatchOnRefusal() },
];
