/**
 * Prism's `Prefer` hooks (`Prefer: code=, example=, dynamic=, seed=`; `__code`, `__example`,
 * `__dynamic`, `__seed` when no Prefer header is sent): such a request, once past authentication, rate
 * limits, scopes and modules, is answered by @stoplight/prism-http's mocker from the spec instead of the
 * stateful handler. Prism parses the spec on the first such request, not at start-up.
 *
 * Unlike `prism mock`, a `code` the operation does not document is refused with 400 `validation_error`
 * naming `Prefer`, rather than a 404 a client cannot tell from a real one (notes/prism-5.16.md).
 */
import { createInstance, getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import { OPENAPI_FILE } from '../../contract/paths.ts';
import type { Operation } from '../../contract/openapi.ts';
import { ProblemError, invalid } from '../http/problem.ts';

const PREFER_KEYS = /(?:^|[,;\s])(code|example|dynamic|seed)=/;
const QUERY_KEYS = ['__code', '__example', '__dynamic', '__seed'];

const silent = {
  level: 'silent',
  trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, success() {}, start() {},
  child() { return silent; },
};

/** Whether a request asks for Prism's generated response. */
export function wantsPrism(prefer: string | undefined, query: Record<string, string[]>): boolean {
  if (prefer !== undefined) return PREFER_KEYS.test(prefer);
  return QUERY_KEYS.some((k) => query[k] !== undefined);
}

function preferences(prefer: string | undefined, query: Record<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  if (prefer !== undefined) {
    for (const part of prefer.split(/[,;]/)) {
      const [k, v] = part.trim().split('=');
      if (k && v !== undefined) out[k] = v.replace(/^"|"$/g, '');
    }
  } else {
    for (const k of QUERY_KEYS) if (query[k]) out[k.slice(2)] = query[k]![0]!;
  }
  return out;
}

export class PrismFallback {
  private ready?: Promise<{ prism: ReturnType<typeof createInstance>; operations: IHttpOperation[] }>;

  private load() {
    this.ready ??= getHttpOperationsFromSpec(OPENAPI_FILE).then((operations) => ({
      operations,
      prism: createInstance(
        { isProxy: false, validateRequest: false, validateResponse: false, checkSecurity: false, errors: false, upstreamProxy: undefined, mock: { dynamic: false } },
        { logger: silent as never },
      ),
    }));
    return this.ready;
  }

  /** Prism's response for this request; throws ProblemError for preferences the operation cannot honour. */
  async respond(
    op: Operation,
    request: { method: string; path: string; query: Record<string, string[]>; headers: Record<string, string | string[] | undefined>; body: unknown },
  ): Promise<{ status: number; contentType?: string; body?: string }> {
    const prefs = preferences(request.headers.prefer as string | undefined, request.query);
    if (prefs.code !== undefined && !op.responses.some((r) => String(r.status) === prefs.code)) {
      throw invalid('header', 'Prefer', `asks for code=${prefs.code}, which ${op.operationId} does not document`);
    }
    const { prism, operations } = await this.load();
    const input = {
      method: request.method.toLowerCase() as 'get',
      url: { path: request.path, query: request.query },
      headers: Object.fromEntries(Object.entries(request.headers).filter(([, v]) => typeof v === 'string')) as Record<string, string>,
      body: request.body,
    };
    const config = {
      isProxy: false as const, validateRequest: false, validateResponse: false, checkSecurity: false, errors: false, upstreamProxy: undefined,
      mock: {
        dynamic: prefs.dynamic === 'true',
        code: prefs.code !== undefined ? Number(prefs.code) : undefined,
        exampleKey: prefs.example,
        seed: prefs.seed,
      },
    };
    const result = await prism.request(input, operations, config)();
    if (result._tag === 'Left') {
      const e = result.left as Error & { status?: number; detail?: string };
      throw new ProblemError(e.status && e.status < 500 ? 400 : 500, 'validation_error', `Prism could not honour the preference: ${e.detail ?? e.message}`);
    }
    const { output } = result.right;
    const headers = Object.fromEntries(Object.entries(output.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const body = output.body === undefined ? undefined : typeof output.body === 'string' ? output.body : JSON.stringify(output.body);
    return { status: output.statusCode, contentType: headers['content-type'], body };
  }
}
