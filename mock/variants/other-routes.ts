/**
 * `other-routes` (docs/freedoms.md): the operations whose paths the description does not show ("Their
 * paths, methods and bodies: not shown"; operations marked `x-inferred`) live under `/v1/vendor/…`
 * (`POST /v1/vendor/identifiers`, `GET /v1/vendor/locations/{id}` …). At the spec's inferred path the
 * service knows no such route: 404 once authenticated (401 before, as for any path). The asset-part link
 * keeps its stated path (`/assets/{id}/parts/{partId}`; only its methods are not shown), and every
 * operation the description shows keeps its path.
 */
import { loadOperations } from '../../contract/openapi.ts';
import { Router } from '../../contract/router.ts';
import type { Alteration } from '../hooks/alteration.ts';

/** Where the moved routes live, under `/v1`. */
export const VENDOR_PREFIX = '/vendor';
/** Operations with a stated path whose method alone is inferred. */
const STATED_PATH = new Set(['linkAssetPart', 'unlinkAssetPart']);
const router = new Router(loadOperations());

/** Whether `method path` (below `/v1`) is an operation this variant moves. */
function moved(method: string, path: string): boolean {
  const found = router.match(method === 'HEAD' ? 'GET' : method, path);
  return found.kind === 'match' && found.match.operation.inferred && !STATED_PATH.has(found.match.operation.operationId);
}

/** The URL the mock routes for a request to `url` in this variant. */
export function otherRoute(method: string, url: string): string {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  const query = at < 0 ? '' : url.slice(at);
  if (!path.startsWith('/v1/')) return url;
  const rest = path.slice(3);
  if (rest.startsWith(`${VENDOR_PREFIX}/`)) {
    const inner = rest.slice(VENDOR_PREFIX.length);
    return moved(method, inner) ? `/v1${inner}${query}` : url;
  }
  // A path no route has: the router's 404, after authentication.
  return moved(method, rest) ? `/v1/moved-elsewhere${rest}${query}` : url;
}

export const otherRoutes: Alteration = {
  request: (method, url) => otherRoute(method, url),
};
