/**
 * The mutants of the self-test (docs/maintainers.md, "The self-test"): deliberately
 * non-conformant variants of the mock, each breaking exactly one requirement of the catalog, named by
 * its id. `npm run selftest` runs the suite against each one and expects a test of that requirement to
 * fail ("killed").
 * Enable one with `npm run mock -- --mutant NAME` or MOCK_MUTANT=NAME for the embedded mock.
 */
import { aggregateVersion } from '../domain/parts-section.ts';
import { single } from '../http/envelope.ts';
import { ProblemError, notFound } from '../http/problem.ts';
import type { Context } from '../http/context.ts';
import { editJson, editQuery, editReply, forOperations, withTemporary, wrapHandlers } from './edit.ts';
import type { Mutant } from './mutation.ts';
import type { World } from '../store/world.ts';
import { BROAD_MUTANTS } from './broad.ts';

const isError = (status: number) => status >= 400;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** A meter of another organization than the context's, if any. */
function foreignMeter(ctx: Context) {
  for (const org of ctx.world.orgs.values()) {
    if (org.id === ctx.org.id) continue;
    const row = org.meters.get(ctx.params.id as string) ?? [...org.meters.values()][0];
    if (row) return row;
  }
  return undefined;
}

/**
 * A PATCH of a work order refused with 400 still applies the members that were valid: the body hook
 * keeps the body, the response hook (same request, no await between) replaces the record through the
 * store, never in place (records' JSON is cached per immutable record).
 */
function partialPatchOnRefusal(): Mutant['mutation'] {
  let world: World | undefined;
  let pending: Record<string, unknown> | undefined;
  return {
    world: (w) => { world = w; },
    body: (operationId, body) => {
      pending = operationId === 'updateWorkOrder' && typeof body === 'object' && body !== null ? body as Record<string, unknown> : undefined;
      return body;
    },
    response: (out, request) => {
      const body = pending;
      pending = undefined;
      if (request.operationId !== 'updateWorkOrder' || out.status !== 400 || !body || !world) return out;
      const id = decodeURIComponent(request.path.split('/').pop() ?? '');
      for (const org of world.orgs.values()) {
        const row = org.workOrders.get(id);
        if (!row) continue;
        const valid: Record<string, unknown> = {};
        if (typeof body.title === 'string' && body.title.length > 0) valid.title = body.title;
        if (['medium', 'high', 'critical'].includes(body.priority as string)) valid.priority = body.priority;
        org.workOrders.replace({ ...row, data: { ...row.data, ...valid, updated_at: new Date(world.clock.now() + 1000).toISOString() } });
      }
      return out;
    },
  };
}

export const MUTANTS: Mutant[] = [
  // ── authentication ──
  { name: 'missing-authorization-403', requirement: 'AUTH-001', description: 'A request without Authorization gets 403 instead of 401.',
    mutation: { response: (out) => (out.status === 401 && String(out.body).includes('missing_authorization') ? editJson({ ...out, status: 403 }, (b) => { b.status = 403; }) : out) } },
  // Not `bearer`: schemes are case-insensitive (RFC 9110 §11.1), so accepting it breaks nothing.
  { name: 'token-scheme-accepted', requirement: 'AUTH-002', description: 'The scheme "Token" is accepted like "Bearer".',
    mutation: { request: (_m, url, headers) => { if (headers.authorization?.startsWith('Token ')) headers.authorization = `Bearer ${headers.authorization.slice(6)}`; return url; } } },
  { name: 'bearer-extra-token-accepted', requirement: 'AUTH-003', description: '"Bearer <key> <more>" is accepted, the extra token ignored.',
    mutation: { request: (_m, url, headers) => { const m = /^Bearer (\S+) \S.*$/.exec(headers.authorization ?? ''); if (m) headers.authorization = `Bearer ${m[1]}`; return url; } } },
  { name: 'wrong-prefix-code', requirement: 'AUTH-004', description: 'A key with another prefix gets invalid_api_key instead of invalid_api_key_format.',
    mutation: { request: (_m, url, headers) => { const m = /^Bearer ((?:pk|rk|sk_prod|SK_LIVE|api)_\S+)$/.exec(headers.authorization ?? ''); if (m) headers.authorization = 'Bearer sk_live_Unknown0Unknown0Unknown0Unknown0'; return url; } } },
  { name: 'unknown-key-format-code', requirement: 'AUTH-007', description: 'A well-formed unknown key gets invalid_api_key_format.',
    mutation: { response: (out) => (out.status === 401 && String(out.body).includes('"invalid_api_key"') ? editJson(out, (b) => { b.code = 'invalid_api_key_format'; b.type = b.type.replace(/invalid_api_key$/, 'invalid_api_key_format'); }) : out) } },
  { name: 'revoked-key-accepted', requirement: 'AUTH-008', description: 'Revoked keys keep working.',
    mutation: { world: (w) => { for (const k of w.keysById.values()) delete k.revokedAt; } } },
  { name: 'expired-key-accepted', requirement: 'AUTH-009', description: 'Expired keys keep working.',
    mutation: { world: (w) => { for (const k of w.keysById.values()) delete k.expiresAt; } } },

  // ── scopes and modules ──
  { name: 'scope-ignored-on-list-meters', requirement: 'SCOPE-002', description: 'listMeters lets any scope through.',
    mutation: { scopeAllows: (op, key) => key.scopes.has(op.scope) || (op.operationId === 'listMeters' && key.scopes.size > 0) } },
  { name: 'write-implies-read', requirement: 'SCOPE-003', description: 'A write scope also grants its read scope.',
    mutation: { scopeAllows: (op, key) => key.scopes.has(op.scope) || (op.scope.endsWith(':read') && key.scopes.has(op.scope.replace(':read', ':write'))) } },
  { name: 'no-scope-key-reads-work-orders', requirement: 'SCOPE-004', description: 'A key with no scopes can list work orders.',
    mutation: { scopeAllows: (op, key) => key.scopes.has(op.scope) || (key.scopes.size === 0 && op.operationId === 'listWorkOrders') } },
  { name: 'meters-module-unchecked', requirement: 'MODULE-001', description: 'The Meters module is not checked.',
    mutation: { skipModule: (op) => op.module === 'meters' } },
  { name: 'requests-module-unchecked', requirement: 'MODULE-002', description: 'The Requests module is not checked on the work-request list.',
    mutation: { skipModule: (op) => op.operationId === 'listWorkRequests' } },
  { name: 'portals-module-unchecked', requirement: 'MODULE-003', description: 'The Request Portals module is not checked on the portal list.',
    mutation: { skipModule: (op) => op.operationId === 'listWorkRequestPortals' } },
  { name: 'parts-custom-fields-unchecked', requirement: 'MODULE-004', description: 'Custom fields of parts ignore the Parts Inventory module.',
    mutation: { skipModule: (op) => op.tag === 'custom-fields' } },
  { name: 'meter-archive-module-gated', requirement: 'MODULE-005', description: 'Archiving a meter needs the Meters module.',
    mutation: { handlers: wrapHandlers({ archiveMeter: (original) => (ctx) => { if (!ctx.org.hasModule('meters')) throw new ProblemError(403, 'module_disabled', 'The meters module is disabled for this organization.'); return original(ctx); } }) } },
  { name: 'parts-commit-without-module', requirement: 'MODULE-006', description: 'Parts commands commit stock while Parts Inventory is disabled.',
    mutation: { handlers: wrapHandlers({ commandWorkOrderParts: (original) => (ctx) => withTemporary(() => { const was = ctx.org.modules.parts_inventory; ctx.org.modules.parts_inventory = true; return () => { ctx.org.modules.parts_inventory = was; }; }, () => original(ctx)) }) } },

  // ── tenant isolation ──
  { name: 'foreign-meter-readable', requirement: 'TENANT-001', description: "Another organization's meter can be read by id.",
    mutation: { handlers: wrapHandlers({ getMeter: (original) => (ctx) => { try { return original(ctx); } catch (e) { const row = foreignMeter(ctx); if (row && row.id === ctx.params.id) return single(ctx, JSON.stringify(row.data)); throw e; } } }) } },
  { name: 'foreign-meter-listed', requirement: 'TENANT-002', description: "The meter list shows a meter of every other organization.",
    mutation: { handlers: wrapHandlers({ listMeters: (original) => (ctx) => editReply(original, ctx, (b) => { for (const org of ctx.world.orgs.values()) { const first = org.id === ctx.org.id ? undefined : org.meters.all()[0]; if (first) b.data.push(first.data); } }) }) } },
  { name: 'organization-header-switches-tenant', requirement: 'TENANT-003', description: 'X-Organization-ID switches the organization of a read.',
    mutation: { handlers: wrapHandlers({ getMeter: (original) => (ctx) => { const org = ctx.world.orgs.get(String(ctx.query.organization_id?.[0] ?? '')); return original(org ? { ...ctx, org } : ctx); } }) } },

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

  // ── pagination ──
  { name: 'default-limit-25', requirement: 'PAGE-001', description: 'Native lists default to 25 records.',
    mutation: { request: (m, url) => (m === 'GET' && /^\/v1\/(meters|work-orders|assets)(\?|$)/.test(url) ? editQuery(url, (q) => { if (!q.has('limit') && !q.has('cursor')) q.set('limit', '25'); }) : url) } },
  { name: 'limit-above-100-accepted', requirement: 'PAGE-003', description: 'A limit above 100 is served as 100.',
    mutation: { request: (_m, url) => editQuery(url, (q, path) => { if (!/^\/v1\/(workrequests|workrequestportals)/.test(path) && Number(q.get('limit')) > 100) q.set('limit', '100'); }) } },
  { name: 'has-more-on-last-page', requirement: 'PAGE-004', description: 'has_more stays true on the last page.',
    mutation: { response: (out) => (out.status === 200 && String(out.body).includes('"has_more":false') ? editJson(out, (b) => { b.meta.pagination.has_more = true; }) : out) } },
  { name: 'page-skips-first-record', requirement: 'PAGE-005', description: 'Pages after the first skip their first record.',
    mutation: { response: (out, req) => (out.status === 200 && /(^|&)cursor=/.test(req.search) && String(out.body).includes('"pagination"') ? editJson(out, (b) => { b.data.shift(); }) : out) } },
  { name: 'desc-served-asc', requirement: 'PAGE-006', description: 'direction=desc is ignored on the first page.',
    mutation: { request: (_m, url) => editQuery(url, (q) => { if (q.get('direction') === 'desc' && !q.has('cursor')) q.set('direction', 'asc'); }) } },
  { name: 'bad-direction-accepted', requirement: 'PAGE-007', description: 'An unknown direction is served as asc.',
    mutation: { request: (_m, url) => editQuery(url, (q) => { const d = q.get('direction'); if (d !== null && d !== 'asc' && d !== 'desc') q.delete('direction'); }) } },
  { name: 'total-count-off-by-one', requirement: 'PAGE-008', description: 'total_count counts one record too many.',
    mutation: { response: (out) => (out.status === 200 && String(out.body).includes('"total_count"') ? editJson(out, (b) => { b.meta.pagination.total_count += 1; }) : out) } },
  { name: 'readings-ordered-by-id', requirement: 'PAGE-010', description: 'Readings are ordered by id only.',
    mutation: { response: forOperations(['listMeterReadings'], (out) => editJson(out, (b) => { b.data.sort((x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : 1)); })) } },
  { name: 'readings-cursor-any-direction', requirement: 'PAGE-011', description: 'A readings cursor is accepted in the other direction.',
    mutation: { cursorChecks: { direction: false } } },
  { name: 'compat-default-limit-50', requirement: 'PAGE-012', description: 'Compatibility lists default to 50 records.',
    mutation: { request: (m, url) => (m === 'GET' && /^\/v1\/(workrequests|workrequestportals)(\?|$)/.test(url) ? editQuery(url, (q) => { if (!q.has('limit') && !q.has('cursor')) q.set('limit', '50'); }) : url) } },
  { name: 'compat-limit-above-200-accepted', requirement: 'PAGE-013', description: 'A compatibility limit above 200 is served as 200.',
    mutation: { request: (_m, url) => editQuery(url, (q, path) => { if (/^\/v1\/(workrequests|workrequestportals)/.test(path) && Number(q.get('limit')) > 200) q.set('limit', '200'); }) } },
  { name: 'compat-last-page-cursor', requirement: 'PAGE-014', description: 'The final compatibility page keeps a nextCursor.',
    mutation: { response: forOperations(['listWorkRequests', 'listWorkRequestPortals'], (out) => editJson(out, (b) => { if (b.nextCursor === null) b.nextCursor = 'end'; })) } },
  { name: 'compat-page-repeats', requirement: 'PAGE-015', description: 'A compatibility page after the first repeats its predecessor\'s last record.',
    mutation: { response: forOperations(['listWorkRequests', 'listWorkRequestPortals'], (out, req) => (/(^|&)cursor=/.test(req.search) ? editJson(out, (b) => { const list = b.workRequests ?? b.workRequestPortals; if (list.length > 1) list.push(list[0]); }) : out)) } },
  { name: 'next-page-url-drops-limit', requirement: 'PAGE-016', description: 'nextPageUrl forgets the limit.',
    mutation: { response: forOperations(['listWorkRequests', 'listWorkRequestPortals'], (out) => editJson(out, (b) => { if (typeof b.nextPageUrl === 'string') b.nextPageUrl = b.nextPageUrl.replace(/([?&])limit=\d+&?/, '$1'); })) } },
  { name: 'cursor-any-endpoint', requirement: 'PAGE-017', description: 'Cursors are not bound to their endpoint.', mutation: { cursorChecks: { endpoint: false } } },
  { name: 'cursor-any-filters', requirement: 'PAGE-018', description: 'Cursors are not bound to their filters.', mutation: { cursorChecks: { filters: false } } },
  { name: 'cursor-any-limit', requirement: 'PAGE-019', description: 'Cursors are not bound to their page size.', mutation: { cursorChecks: { limit: false } } },
  { name: 'cursor-any-direction', requirement: 'PAGE-020', description: 'Native cursors are not bound to their direction.', mutation: { cursorChecks: { direction: false } } },
  { name: 'cursor-any-organization', requirement: 'PAGE-021', description: 'Cursors are not bound to their organization.', mutation: { cursorChecks: { org: false } } },
  { name: 'garbled-cursor-restarts', requirement: 'PAGE-022', description: 'A cursor the service did not issue restarts the list.',
    mutation: { request: (_m, url) => editQuery(url, (q) => { const c = q.get('cursor'); if (c !== null && !/^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{22}$/.test(c)) q.delete('cursor'); }) } },
  { name: 'custom-fields-paginated', requirement: 'PAGE-024', description: 'Custom-field lists honour limit.',
    mutation: { response: forOperations(['listCustomFields'], (out, req) => { const limit = Number(new URLSearchParams(req.search).get('limit')); return limit > 0 ? editJson(out, (b) => b.slice(0, limit)) : out; }) } },

  // ── versioning and wire styles ──
  { name: 'paths-without-v1', requirement: 'VER-001', description: 'The API also answers without the /v1 prefix.',
    mutation: { request: (_m, url) => (url.startsWith('/v1') || url.startsWith('/__mock') ? url : `/v1${url}`) } },
  { name: 'api-version-missing', requirement: 'VER-002', description: 'meta.api_version is missing.',
    mutation: { response: (out) => (out.status < 300 && String(out.body).includes('"api_version"') ? editJson(out, (b) => { delete b.meta.api_version; }) : out) } },
  { name: 'single-without-meta', requirement: 'VER-003', description: 'Single meters come without meta.',
    mutation: { response: forOperations(['getMeter'], (out) => editJson(out, (b) => { delete b.meta; })) } },
  { name: 'list-without-pagination', requirement: 'VER-004', description: 'Meter lists lack meta.pagination.',
    mutation: { response: forOperations(['listMeters'], (out) => editJson(out, (b) => { delete b.meta.pagination; })) } },
  { name: 'native-camel-case', requirement: 'WIRE-001', description: 'Meters spell current_value as currentValue.',
    mutation: { response: forOperations(['getMeter', 'listMeters'], (out) => editJson(out, (b) => { for (const m of [b.data].flat()) if (m && 'current_value' in m) { m.currentValue = m.current_value; delete m.current_value; } })) } },
  { name: 'compat-snake-case', requirement: 'WIRE-002', description: 'Work requests spell requestStatus as request_status.',
    mutation: { response: forOperations(['listWorkRequests'], (out) => editJson(out, (b) => { for (const w of b.workRequests) { w.request_status = w.requestStatus; delete w.requestStatus; } })) } },
  { name: 'parts-section-enveloped', requirement: 'WIRE-003', description: 'The parts section comes in a data envelope.',
    mutation: { response: forOperations(['getWorkOrderParts'], (out) => editJson(out, (b) => ({ data: b, meta: { request_id: out.headers['X-Request-ID'], api_version: 'v1' } }))) } },
  { name: 'query-names-case-insensitive', requirement: 'WIRE-004', description: 'LIMIT is read as limit.',
    mutation: { request: (_m, url) => editQuery(url, (q) => { const v = q.get('LIMIT'); if (v !== null) { q.delete('LIMIT'); q.set('limit', v); } }) } },
  { name: 'json-names-case-insensitive', requirement: 'WIRE-005', description: 'Body field names are matched case-insensitively.',
    mutation: { body: (_op, body) => (body && typeof body === 'object' && !Array.isArray(body) ? Object.fromEntries(Object.entries(body).map(([k, v]) => [k.toLowerCase(), v])) : body) } },
  { name: 'vendors-route', requirement: 'WIRE-006', description: 'GET /v1/vendors answers 200.',
    mutation: { response: (out, req) => (req.path === '/v1/vendors' && out.status === 404 ? { status: 200, headers: { ...out.headers, 'Content-Type': 'application/json' }, body: '{"data":[]}' } : out) } },

  // ── meters and readings ──
  { name: 'create-meter-200', requirement: 'METER-002', description: 'POST /meters answers 200 instead of 201.', mutation: { response: forOperations(['createMeter'], (out) => (out.status === 201 ? { ...out, status: 200 } : out)) } },
  { name: 'meter-both-attachments-accepted', requirement: 'METER-003', description: 'A meter with both asset_id and location_id is created on the asset.',
    mutation: { body: (op, body: any) => { if (op === 'createMeter' && body?.asset_id && body?.location_id) delete body.location_id; return body; } } },
  { name: 'meter-patch-clears-description', requirement: 'METER-008', description: 'PATCH clears the fields it does not name.',
    mutation: { body: (op, body: any) => (op === 'updateMeter' && body && !('description' in body) && !('asset_id' in body) ? { ...body, description: null } : body) } },
  { name: 'automation-meter-archived', requirement: 'METER-011', description: 'Meters used by automations are archived anyway.',
    mutation: { world: (w) => { for (const org of w.orgs.values()) for (const m of org.meters.all()) if (m.usedByAutomation) org.meters.replace({ ...m, usedByAutomation: false }); } } },
  { name: 'meter-filter-ignored', requirement: 'METER-013', description: 'The meter list ignores asset_id.',
    mutation: { request: (_m, url) => (url.startsWith('/v1/meters?') ? editQuery(url, (q) => q.delete('asset_id')) : url) } },
  { name: 'reading-for-unknown-meter', requirement: 'READ-004', description: 'Readings of an unknown meter list as empty.',
    mutation: { handlers: wrapHandlers({ listMeterReadings: (original) => (ctx) => { try { return original(ctx); } catch { return { status: 200, body: `{"data":[],"meta":{"request_id":"${ctx.requestId}","api_version":"v1","pagination":{"has_more":false,"cursor":""}}}` }; } } }) } },

  // ── work orders ──
  { name: 'todo-without-on-hold', requirement: 'WO-007', description: 'status=todo leaves out on_hold work orders.',
    mutation: { handlers: wrapHandlers({ listWorkOrders: (original) => (ctx) => (ctx.params.status === 'todo' ? editReply(original, ctx, (b) => { b.data = b.data.filter((w: { status: string }) => w.status !== 'on_hold'); }) : original(ctx)) }) } },
  { name: 'priority-filter-ignored', requirement: 'WO-008', description: 'The work-order list ignores priority.',
    mutation: { request: (_m, url) => (url.startsWith('/v1/work-orders?') ? editQuery(url, (q) => q.delete('priority')) : url) } },
  { name: 'soft-deleted-readable', requirement: 'WO-011', description: 'A soft-deleted work order still reads.',
    mutation: { handlers: wrapHandlers({ getWorkOrder: (original) => (ctx) => { const row = ctx.org.workOrders.getAny(ctx.params.id as string); return row?.deletedAt ? single(ctx, JSON.stringify(row.data)) : original(ctx); } }) } },
  { name: 'soft-delete-not-repeatable', requirement: 'WO-012', description: 'Deleting a soft-deleted work order answers 404.',
    mutation: { handlers: wrapHandlers({ deleteWorkOrder: (original) => (ctx) => { if (ctx.org.workOrders.getAny(ctx.params.id as string)?.deletedAt) throw notFound('The work order'); return original(ctx); } }) } },
  { name: 'request-left-pending', requirement: 'WO-016', description: 'Creating with workRequestId does not approve the request.',
    mutation: { handlers: wrapHandlers({ createWorkOrder: (original) => (ctx) => { const id = (ctx.body as { workRequestId?: string }).workRequestId; const reply = original(ctx); const wr = id ? ctx.org.workRequests.get(id) : undefined; if (wr && reply.status === 201) ctx.org.workRequests.replace({ ...wr, data: { ...wr.data, requestStatus: 'PENDING' } }); return reply; } }) } },
  { name: 'repeat-creates-another', requirement: 'WO-017', description: 'Repeating the create with a workRequestId makes another work order.',
    mutation: { handlers: wrapHandlers({ createWorkOrder: (original) => (ctx) => { const id = (ctx.body as { workRequestId?: string }).workRequestId; const wr = id ? ctx.org.workRequests.get(id) : undefined; if (wr?.data.workOrderId) ctx.org.workRequests.replace({ ...wr, data: { ...wr.data, workOrderId: null, requestStatus: 'PENDING' } }); return original(ctx); } }) } },
  { name: 'rejected-request-approved', requirement: 'WO-018', description: 'A rejected request is approved into a work order.',
    mutation: { handlers: wrapHandlers({ createWorkOrder: (original) => (ctx) => { const id = (ctx.body as { workRequestId?: string }).workRequestId; const wr = id ? ctx.org.workRequests.get(id) : undefined; if (wr?.data.requestStatus === 'REJECTED') ctx.org.workRequests.replace({ ...wr, data: { ...wr.data, requestStatus: 'PENDING' } }); return original(ctx); } }) } },
  { name: 'none-creates-low', requirement: 'WOC-002', description: 'Compatibility NONE creates native low.',
    mutation: { body: (op, body: any) => (op === 'createCompatWorkOrder' && body?.priority === 'NONE' ? { ...body, priority: 'LOW' } : body) } },

  { name: 'critical-reads-medium', requirement: 'WOC-003', description: 'Native critical reads as MEDIUM in the compatibility shape.',
    mutation: { handlers: wrapHandlers({ getCompatWorkOrder: (original) => (ctx) => editReply(original, ctx, (b) => { if (ctx.org.workOrders.get(ctx.params.id as string)?.data.priority === 'critical') b.workOrder.priority = 'MEDIUM'; }) }) } },

  // ── expenses ──
  { name: 'retired-expenses-listed', requirement: 'EXP-002', description: 'Retired expense entries stay in the list.',
    mutation: { handlers: wrapHandlers({ listWorkOrderExpenses: (original) => (ctx) => editReply(original, ctx, (b) => { for (const e of ctx.org.expenses.all()) if (e.retiredAt && e.workOrderId === ctx.params.id) b.items.push(e.data); }) }) } },
  { name: 'expense-currency-wrong', requirement: 'EXP-003', description: 'New entries record XXX instead of the organization currency.',
    mutation: { response: forOperations(['createWorkOrderExpense'], (out) => editJson(out, (b) => { if (b.currency) b.currency = 'XXX'; })) } },
  { name: 'expense-extra-properties-accepted', requirement: 'EXP-004', description: 'Unknown expense fields are dropped instead of refused.',
    mutation: { body: (op, body: any) => (op === 'createWorkOrderExpense' && body && typeof body === 'object' ? Object.fromEntries(Object.entries(body).filter(([k]) => ['user_id', 'type', 'amount_minor', 'description'].includes(k))) : body) } },
  { name: 'expense-amount-unbounded', requirement: 'EXP-007', description: 'amount_minor above 2147483647 is capped instead of refused.',
    mutation: { body: (op, body: any) => (op === 'createWorkOrderExpense' && typeof body?.amount_minor === 'number' && body.amount_minor > 2147483647 ? { ...body, amount_minor: 2147483647 } : body) } },
  { name: 'expense-inactive-user-accepted', requirement: 'EXP-009', description: 'Inactive users can own expenses.',
    mutation: { world: (w) => { for (const org of w.orgs.values()) for (const [id, u] of org.users) org.users.set(id, { ...u, active: true }); } } },
  { name: 'expense-cost-tracking-ignored', requirement: 'EXP-010', description: 'Expenses are recorded with cost tracking disabled.',
    mutation: { handlers: wrapHandlers({ createWorkOrderExpense: (original) => (ctx) => withTemporary(() => { const was = ctx.org.settings.costTracking; ctx.org.settings.costTracking = true; return () => { ctx.org.settings.costTracking = was; }; }, () => original(ctx)) }) } },
  { name: 'expense-retire-not-repeatable', requirement: 'EXP-012', description: 'Retiring a retired entry answers 404.',
    mutation: { handlers: wrapHandlers({ retireWorkOrderExpense: (original) => (ctx) => { if (ctx.org.expenses.getAny(ctx.params.costId as string)?.retiredAt) throw notFound('The expense entry'); return original(ctx); } }) } },

  // ── parts ──
  { name: 'parts-version-unchanged', requirement: 'PARTS-002', description: 'aggregateVersion does not change when the section changes.',
    mutation: { response: forOperations(['getWorkOrderParts', 'commandWorkOrderParts'], (out) => editJson(out, (b) => { if (b.aggregateVersion) b.aggregateVersion = 'f'.repeat(64); })) } },
  { name: 'parts-unit-cost-dropped', requirement: 'PARTS-004', description: 'unitCost is omitted although cost access is granted.',
    mutation: { response: forOperations(['getWorkOrderParts'], (out) => editJson(out, (b) => { if (b.capabilities?.canViewCost) for (const i of b.items) delete i.unitCost; })) } },
  { name: 'parts-assigned-reserves', requirement: 'PARTS-008', description: 'Assigned parts of other work orders reduce availability.',
    mutation: { response: forOperations(['getWorkOrderParts'], (out) => editJson(out, (b) => { for (const i of b.items) { const held = b.competingDemands.filter((d: any) => d.partId === i.partId && d.locationId === i.locationId && d.partStatus === 'assigned').reduce((n: number, d: any) => n + d.quantity, 0); i.availableQuantity -= held; } })) } },
  { name: 'parts-commitments-ignored', requirement: 'PARTS-009', description: 'Reserved parts of other work orders do not reduce availability.',
    mutation: { response: forOperations(['getWorkOrderParts'], (out) => editJson(out, (b) => { for (const i of b.items) i.availableQuantity = i.inStockQuantity; })) } },
  { name: 'parts-issue-without-deduction', requirement: 'PARTS-010', description: 'Issuing parts does not deduct stock.',
    mutation: { handlers: wrapHandlers({ commandWorkOrderParts: (original) => (ctx) => { const body = ctx.body as { operation: string; targetStatus?: string }; if (body.operation !== 'transition' || body.targetStatus !== 'issued') return original(ctx); const before = new Map(ctx.org.stock); const reply = original(ctx); for (const [k, v] of before) ctx.org.stock.set(k, v); return reply; } }) } },
  { name: 'parts-stale-version-accepted', requirement: 'PARTS-016', description: 'A stale expectedAggregateVersion is accepted.',
    mutation: { handlers: wrapHandlers({ commandWorkOrderParts: (original) => (ctx) => { const row = ctx.org.workOrders.get(ctx.params.id as string); if (row) (ctx.body as { expectedAggregateVersion: string }).expectedAggregateVersion = aggregateVersion(row); return original(ctx); } }) } },
  { name: 'parts-retry-applied-twice', requirement: 'PARTS-017', description: 'A retried command is applied again.',
    mutation: { handlers: wrapHandlers({ commandWorkOrderParts: (original) => (ctx) => { const row = ctx.org.workOrders.get(ctx.params.id as string); if (row) { ctx.org.workOrders.replace({ ...row, parts: { ...row.parts, idempotency: new Map() } }); (ctx.body as { expectedAggregateVersion: string }).expectedAggregateVersion = aggregateVersion(ctx.org.workOrders.get(row.id)!); } return original(ctx); } }) } },
  { name: 'parts-replace-renumbers-rows', requirement: 'PARTS-019', description: 'replace gives every row a new id.',
    mutation: { body: (op, body: any) => (op === 'commandWorkOrderParts' && body?.operation === 'replace' && Array.isArray(body.items) ? { ...body, items: body.items.map(({ id: _id, ...item }: { id?: string }) => item) } : body) } },

  // ── work requests and portals ──
  { name: 'expand-ignored', requirement: 'WR-004', description: 'expand is ignored on the work-request list.',
    mutation: { request: (_m, url) => (url.startsWith('/v1/workrequests?') ? editQuery(url, (q) => { const e = q.get('expand'); if (e) q.set('expand', e.split(',').filter((x) => x === 'extra_fields').join(',')); if (q.get('expand') === '') q.delete('expand'); }) : url) } },
  { name: 'bad-expand-accepted', requirement: 'WR-006', description: 'Unknown expand values are ignored.',
    mutation: { request: (_m, url) => (url.startsWith('/v1/workrequests?') ? editQuery(url, (q) => { const e = q.get('expand'); if (e !== null) { const ok = e.split(',').filter((x) => ['asset', 'location', 'work_order', 'extra_fields'].includes(x)); if (ok.length) q.set('expand', ok.join(',')); else q.delete('expand'); } }) : url) } },
  { name: 'upload-limit-2mib', requirement: 'WR-010', description: 'Uploads up to 2 MiB are stored.', mutation: { maxBodyBytes: 2 * 1024 * 1024 } },
  { name: 'thumbnail-any-media', requirement: 'WR-011', description: 'Any media is accepted as a thumbnail.',
    mutation: { handlers: wrapHandlers({ setWorkRequestThumbnail: (original) => (ctx) => original({ ...ctx, contentType: 'image/png', raw: PNG }) }) } },

  { name: 'portal-email-only-string', requirement: 'PORTAL-002', description: 'Portals carry emailOnly as a string.',
    mutation: { response: forOperations(['listWorkRequestPortals'], (out) => editJson(out, (b) => { for (const p of b.workRequestPortals ?? []) if ('emailOnly' in p) p.emailOnly = String(p.emailOnly); })) } },

  // ── custom fields and locations ──
  { name: 'custom-fields-unordered', requirement: 'CF-002', description: 'Definitions are listed newest first.',
    mutation: { response: forOperations(['listCustomFields'], (out) => editJson(out, (b) => b.reverse())) } },
  { name: 'custom-field-id-zero-accepted', requirement: 'CF-005', description: 'A custom-field id of 0 is read as an unknown id (404).',
    mutation: { request: (_m, url) => url.replace(/^(\/v1\/customfields\/[^/?]+\/)0(?=$|\?)/, '$12147483647') } },
  { name: 'archived-definition-listed', requirement: 'CF-008', description: 'Archived definitions stay in the list.',
    mutation: { handlers: wrapHandlers({ listCustomFields: (original) => (ctx) => editReply(original, ctx, (b) => { for (const d of ctx.org.customFields[ctx.params.entity as 'assets']) if (d.archivedAt) b.push(d.data); }) }) } },
  { name: 'location-third-level', requirement: 'LOC-003', description: 'A location can be placed under a sub-location.',
    mutation: { handlers: wrapHandlers({ createLocation: (original) => (ctx) => { const parentId = (ctx.body as { parentId?: string | null }).parentId; const parent = parentId ? ctx.org.locations.get(parentId) : undefined; if (!parent?.data.parentId) return original(ctx); return withTemporary(() => { ctx.org.locations.replace({ ...parent, data: { ...parent.data, parentId: null } }); return () => { ctx.org.locations.replace({ ...ctx.org.locations.get(parent.id)!, data: { ...ctx.org.locations.get(parent.id)!.data, parentId: parent.data.parentId } }); }; }, () => original(ctx)); } }) } },

  { name: 'work-order-detail-without-extra-fields', requirement: 'EXTRA-002', description: 'Work-order details omit extraFields.',
    mutation: { response: forOperations(['getWorkOrder'], (out) => editJson(out, (b) => { if (b.data) delete b.data.extraFields; })) } },
  { name: 'work-order-list-with-extra-fields', requirement: 'EXTRA-003', description: 'Work-order lists carry extraFields values.',
    mutation: { response: forOperations(['listWorkOrders'], (out) => editJson(out, (b) => { for (const w of b.data ?? []) w.extraFields = {}; })) } },
  { name: 'location-list-extra-fields-always', requirement: 'EXTRA-005', description: 'Location lists carry extraFields without expand=extra_fields.',
    mutation: { response: forOperations(['listLocations'], (out, req) => (/(^|&)expand=/.test(req.search) ? out : editJson(out, (b) => { for (const l of b.data ?? []) l.extraFields ??= {}; }))) } },
  { name: 'unlink-keeps-link', requirement: 'LINK-001', description: 'Unlinking a part from an asset answers 204 and keeps the link.',
    mutation: { handlers: wrapHandlers({ unlinkAssetPart: () => () => ({ status: 204 }) }) } },
  { name: 'part-minimum-stock-string', requirement: 'PART-001', description: 'Parts carry minimum_stock as a string.',
    mutation: { response: forOperations(['getPart', 'listParts', 'createPart'], (out) => editJson(out, (b) => { for (const p of [b.data].flat()) if (p && typeof p.minimum_stock === 'number') p.minimum_stock = String(p.minimum_stock); })) } },

  // ── generated requests ──
  { name: 'refused-patch-applies-valid-members', requirement: 'GEN-002', description: 'A work-order PATCH refused with 400 still applies its valid members (and updated_at).',
    mutation: partialPatchOnRefusal() },

  // ── identifiers and assets ──
  { name: 'identifier-resolves-case-insensitively', requirement: 'IDENT-005', description: 'Payloads resolve whatever their case.',
    mutation: { handlers: wrapHandlers({ resolveIdentifier: (original) => (ctx) => { const payload = String(ctx.params.payload); const hit = [...ctx.org.identifierByValue.keys()].find((v) => v.toLowerCase() === payload.trim().toLowerCase()); return original(hit ? { ...ctx, params: { ...ctx.params, payload: hit } } : ctx); } }) } },
  { name: 'sub-asset-count-off-by-one', requirement: 'ASSET-005', description: 'sub_asset_count counts one too many when there are sub-assets.',
    mutation: { response: forOperations(['listAssets', 'getAsset'], (out) => editJson(out, (b) => { for (const a of [b.data].flat()) if (a?.sub_asset_count > 0) a.sub_asset_count += 1; })) } },

  // ── broad: one deviation on every operation (./broad.ts) ──
  ...BROAD_MUTANTS,
];

/** The mutant of this name, if any. */
export function findMutant(name: string): Mutant | undefined {
  return MUTANTS.find((m) => m.name === name);
}

/** The mutant of this name; throws with the list of names when there is none. */
export function mutantNamed(name: string): Mutant {
  const found = findMutant(name);
  if (!found) throw new Error(`no mutant ${name}; mutants: ${MUTANTS.map((m) => m.name).join(', ')}`);
  return found;
}
