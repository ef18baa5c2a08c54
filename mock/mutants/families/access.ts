/** Mutants of the self-test (docs/maintainers.md, "The self-test"): authentication, scopes and modules, tenant isolation. */
import { single } from '../../http/envelope.ts';
import { ProblemError } from '../../http/problem.ts';
import { editJson, editReply, withTemporary, wrapHandlers } from '../../hooks/edit.ts';
import { foreignMeter } from '../helpers.ts';
import type { Mutant } from '../mutant.ts';

export const accessMutants: Mutant[] = [
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
];
