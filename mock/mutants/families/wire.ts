/** Mutants of the self-test (docs/maintainers.md, "The self-test"): versioning and wire styles, meters and readings. */
import { single } from '../../http/envelope.ts';
import { editJson, editQuery, forOperations, wrapHandlers } from '../../hooks/edit.ts';
import type { Mutant } from '../mutant.ts';

export const wireMutants: Mutant[] = [
  // ── versioning and wire styles ──
  { name: 'paths-without-v1', requirement: 'VER-007', description: 'The API also answers without the /v1 prefix.',
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
];
