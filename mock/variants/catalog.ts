/**
 * The variants of the mock (docs/freedoms.md): each serves one freedom of the description differently.
 * `npm run mock -- --variant a,b` or MOCK_VARIANT=a,b for the embedded mock; the self-test runs the suite
 * against each and expects no failed `must`.
 */
import { randomUUID } from 'node:crypto';
import { editJson, editQuery, wrapHandlers } from '../hooks/edit.ts';
import { describedOnly } from './described-only.ts';
import { ignoredWrites } from './ignored-writes.ts';
import { otherSuccessStatuses } from './other-success-statuses.ts';
import { otherRoutes } from './other-routes.ts';
import { otherEffects } from './other-effects.ts';
import { combine, type Variant } from './variant.ts';
import type { Alteration } from '../hooks/alteration.ts';

const WRAP = 'vx2.';
const wrapCursor = (c: unknown) => (typeof c === 'string' ? `${WRAP}${Buffer.from(c).toString('base64url')}.${'0'.repeat(40)}` : c);
const unwrapCursor = (c: string) => (c.startsWith(WRAP) ? Buffer.from(c.slice(WRAP.length).split('.')[0]!, 'base64url').toString() : c);
const NAMED_409 = new Set(['invalid_work_request_state', 'invalid_location_hierarchy', 'resource_in_use']);
/** A header of an outgoing response, whatever the case of its name. */
export const header = (headers: Record<string, unknown>, name: string) => String(Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1] ?? '');
const isProblem = (headers: Record<string, unknown>) => header(headers, 'content-type').startsWith('application/problem+json');

/**
 * Adds a member to each record of a JSON body (native `data`, compatibility wrappers, bare arrays), named
 * in the body's wire style ("snake_case fields" native, "camelCase shapes" compatibility and sections).
 */
function addMember(b: any): void {
  const native = !Array.isArray(b) && b?.data !== undefined;
  const records = Array.isArray(b) ? b : native ? [b.data].flat() : [b, b?.workRequest, b?.workRequestPortal, b?.workOrder, ...(b?.workRequests ?? []), ...(b?.workRequestPortals ?? []), ...(b?.items ?? [])];
  for (const r of records) if (r && typeof r === 'object' && !Array.isArray(r)) r[native ? 'vendor_revision' : 'vendorRevision'] = 7;
  if (b?.meta && typeof b.meta === 'object') b.meta.server_region = 'eu-1';
}

export const VARIANTS: Variant[] = [
  { name: 'other-ids', freedom: 'ID formats are not shown ("`{id}` is a resource id").', description: 'New records get longer ids of another alphabet (still in creation order).',
    mutation: { world: (w) => { const next = w.ids.next.bind(w.ids); w.ids.next = (prefix) => `${prefix}_x${next(prefix).split('_').slice(1).join('_')}-${randomUUID().slice(0, 8)}`; } } },
  { name: 'long-cursors', freedom: '"Cursors are opaque and short-lived."', description: 'Every cursor is wrapped in a longer base64url token whose 40-character tail the service ignores.',
    mutation: {
      request: (_m, url) => editQuery(url, (q) => { const c = q.get('cursor'); if (c) q.set('cursor', unwrapCursor(c)); }),
      response: (out) => (out.status === 200 && !isProblem(out.headers) ? editJson(out, (b) => {
        if (b?.meta?.pagination) b.meta.pagination.cursor = wrapCursor(b.meta.pagination.cursor);
        if (b && 'nextCursor' in b && b.nextCursor) {
          const next = wrapCursor(b.nextCursor) as string;
          if (b.nextPageUrl) b.nextPageUrl = String(b.nextPageUrl).replace(`cursor=${encodeURIComponent(b.nextCursor)}`, `cursor=${encodeURIComponent(next)}`);
          b.nextCursor = next;
        }
      }) : out),
    } },
  { name: 'no-total-count', freedom: '`total_count: integer (present in list samples)`.', description: 'Native lists carry no total_count.',
    mutation: { response: (out) => (out.status === 200 ? editJson(out, (b) => { if (b?.meta?.pagination) delete b.meta.pagination.total_count; }) : out) } },
  { name: 'extra-response-fields', freedom: '"Compatibility applies only to the documented operations and fields."', description: 'Records, meta and problem details carry members the description does not list.',
    mutation: { response: (out) => (out.body === undefined ? out : isProblem(out.headers) ? editJson(out, (b) => { b.instance = '/errors/vendor'; }) : editJson(out, addMember)) } },
  { name: 'other-problem-texts', freedom: 'Problem `title` and `detail` are strings; their texts are not shown.', description: 'Other titles and details.',
    mutation: { response: (out) => (isProblem(out.headers) ? editJson(out, (b) => { b.title = `Fehler ${b.status}`; b.detail = 'Die Anfrage wurde abgelehnt.'; }) : out) } },
  { name: 'uuid-request-ids', freedom: '`X-Request-ID`: "correlation id", format not shown.', description: 'Request ids are UUIDs.',
    mutation: { requestId: () => randomUUID() } },
  { name: 'other-error-codes', freedom: '"The full list of error codes, including codes for 404, 413, 415, 429 and the other 409 cases: not shown."', description: 'Those answers carry other codes.',
    mutation: { response: (out) => (isProblem(out.headers) && [404, 409, 413, 415, 429].includes(out.status) ? editJson(out, (b) => {
      if (out.status === 409 && NAMED_409.has(b.code)) return;
      b.code = `vendor_e${out.status}`;
      b.type = String(b.type).replace(/[^/]+$/, b.code);
    }) : out) } },
  { name: 'compat-create-wrapper', freedom: '`POST /workorders`: "200, a resource wrapper or `{id}`".', description: 'The compatibility create answers {workOrder: {...}}.',
    mutation: { handlers: wrapHandlers({ createCompatWorkOrder: (original) => (ctx) => {
      const reply = original(ctx);
      const id = JSON.parse(String(reply.body)).id;
      return { status: 200, headers: reply.headers, body: JSON.stringify({ workOrder: { id, title: (ctx.body as { title?: string }).title } }) };
    } }) } },
  { name: 'lenient-bearer', freedom: 'RFC 9110 §11.1: "It uses a case-insensitive token"; §11.4: `1*SP` before credentials.', description: 'Accepts `bearer`, `BEARER` and several spaces.',
    mutation: { request: (_m, url, headers) => { const h = headers.authorization; if (h && /^bearer +\S+$/i.test(h)) headers.authorization = `Bearer ${h.split(/ +/)[1]}`; return url; } } },
  { name: 'ignored-writes', freedom: 'Bodies "not shown" (work-order members beyond title, priority and workRequestId; meter, reading and custom-field create; asset, location and part writes).', description: 'Members of a write the description does not show are accepted (2xx) and ignored.',
    mutation: ignoredWrites, incomplete: true },
  { name: 'other-success-statuses', freedom: 'Routes, methods and bodies "not shown": so are their success statuses.', description: 'Inferred creates answer 200 for 201 and 201 for 200, inferred deletes 200.',
    mutation: otherSuccessStatuses, incomplete: true },
  { name: 'other-routes', freedom: 'Operations whose "paths, methods and bodies: not shown" (identifiers, asset/location/part single-resource and writes, work-request and portal writes, compatibility read).', description: 'Those operations live under /v1/vendor/...; at the spec\'s path: 404.',
    mutation: otherRoutes, incomplete: true },
  { name: 'no-inferred-limits', freedom: 'Bodies and parameters "not shown": no limit beyond the stated ones (Limits) applies to them.', description: 'Bodies and parameters marked x-inferred keep their types and required members but no length, bound, pattern or enum.',
    mutation: { requestView: 'unbounded' } },
  { name: 'other-effects', freedom: '"Transitions of work-order status: not shown."; "Permitted moves between part statuses: not shown beyond the server-computed `allowedTransitions`. Staging settings can hide statuses."', description: 'Closed work orders cannot be reopened; staging hides kitted and staged everywhere.',
    mutation: otherEffects, incomplete: true },
  { name: 'described-only', freedom: 'Everything marked x-inferred, every field not listed, the second organization\'s data, what a vendor cannot provision.', description: 'Serves exactly what the description shows.',
    mutation: describedOnly, incomplete: true },
];

/** The variants of a comma-separated list; throws naming the known ones. */
export function variantsNamed(names: string): Variant[] {
  return names.split(',').map((s) => s.trim()).filter(Boolean).map((name) => {
    const found = VARIANTS.find((v) => v.name === name);
    if (!found) throw new Error(`no variant ${name}; variants: ${VARIANTS.map((v) => v.name).join(', ')}`);
    return found;
  });
}

/** The one Alteration of some variants and, optionally, a mutant (applied last). */
export function variantMutation(names: string | undefined, mutant?: Alteration): Alteration | undefined {
  return combine([...(names ? variantsNamed(names).map((v) => v.mutation) : []), ...(mutant ? [mutant] : [])]);
}
