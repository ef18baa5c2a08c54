/**
 * Broad mutants of the self-test (docs/maintainers.md, "The self-test"): one deviation applied to every
 * operation — a header dropped everywhere, a content type changed everywhere, a success or an error
 * status remapped everywhere, an envelope field renamed everywhere — as real deviations often are. The
 * self-test runs the whole suite against each (`broad`), and holds it to the blast radius of every
 * mutant: at most 3 failed `must` requirements outside `states`, the requirements whose statement
 * gives the rule the mutant breaks; and to one root cause in the report.
 */
import { editJson } from '../hooks/edit.ts';
import type { Mutant } from './mutant.ts';

/** The native envelope's `meta.api_version` named `version` (Resources › Native envelope; still snake_case). */
function renameApiVersion(body: any): void {
  const meta = body && typeof body === 'object' ? body.meta : undefined;
  if (!meta || typeof meta !== 'object' || !('api_version' in meta)) return;
  meta.version = meta.api_version;
  delete meta.api_version;
}

/** A problem body turned into 400 `validation_error`, its `type` ending with the new code (Errors). */
function asValidationError(body: any): void {
  body.status = 400;
  if (typeof body.type === 'string' && typeof body.code === 'string') body.type = body.type.replace(new RegExp(`${body.code}$`), 'validation_error');
  body.code = 'validation_error';
}

export const BROAD_MUTANTS: Mutant[] = [
  { name: 'request-id-dropped-everywhere', requirement: 'REQID-001', broad: true, states: ['REQID-001', 'REQID-002', 'REQID-003', 'SPEC-006'],
    description: 'No response carries X-Request-ID (Limits › response headers: "every response, including 204 and errors").',
    mutation: { response: (out) => { delete out.headers['X-Request-ID']; return out; } } },
  { name: 'content-type-text-everywhere', requirement: 'SPEC-003', broad: true, states: ['SPEC-003', 'ERR-001'],
    description: 'Every response with a body, success or problem, is served as text/plain (the body unchanged).',
    mutation: { response: (out) => { if (out.body !== undefined) out.headers['Content-Type'] = 'text/plain; charset=utf-8'; return out; } } },
  { name: 'create-200-everywhere', requirement: 'SPEC-007', broad: true, states: ['SPEC-007', 'SPEC-001', 'METER-002', 'READ-002', 'WO-002', 'EXP-003'],
    description: 'Every 201 is answered 200, on every create (the body unchanged).',
    mutation: { response: (out) => (out.status === 201 ? { ...out, status: 200 } : out) } },
  { name: 'conflict-400-everywhere', requirement: 'METER-011', broad: true, states: ['METER-011', 'WO-018', 'PARTS-007', 'PARTS-016', 'PARTS-027', 'SPEC-001'],
    description: 'Every conflict (409) is answered as a validation failure, 400 validation_error, on every operation.',
    mutation: { response: (out) => (out.status === 409 ? editJson({ ...out, status: 400 }, asValidationError) : out) } },
  { name: 'api-version-renamed-everywhere', requirement: 'VER-002', broad: true, states: ['VER-002', 'VER-003', 'VER-004', 'SPEC-002'],
    description: 'Every native response names meta.api_version meta.version.',
    mutation: { response: (out) => (out.body !== undefined && String(out.body).includes('"api_version"') ? editJson(out, renameApiVersion) : out) } },
];
