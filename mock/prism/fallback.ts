/**
 * Prism's `Prefer` hooks (`Prefer: code=, example=, dynamic=, seed=`; `__code`, `__example`,
 * `__dynamic`, `__seed` when no Prefer header is sent): such a request, once past authentication, rate
 * limits, scopes and modules, is answered by @stoplight/prism-http's mocker from the spec instead of the
 * stateful handler. Prism parses the spec on the first such request, not at start-up.
 *
 * Unlike `prism mock`, a `code` the operation does not document is refused with 400 `validation_error`
 * naming `Prefer`, rather than a 404 a client cannot tell from a real one (notes/prism-5.16.md). An error
 * status is never Prism's generated body (placeholder strings): bridge.ts answers it as the mock's own
 * problem details (Errors), with `Retry-After` on 429 (Limits). A dynamic body holds only the members
 * its schema declares: Prism's JSON Schema Faker is told not to invent extra ones (`fillProperties`).
 */
import { createRequire } from 'node:module';
import { createInstance, getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import { OPENAPI_FILE } from '../../contract/paths.ts';
import type { Operation } from '../../contract/openapi.ts';
import { ProblemError } from '../http/problem.ts';
import { askedProblem, preferences, problemCode, type AskedProblem } from './preferences.ts';

const silent = {
  level: 'silent',
  trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {}, success() {}, start() {},
  child() { return silent; },
};

/** What Prism is asked: the request as the mock read it; values structured-cloneable (it crosses to thread.ts's worker). */
export interface PrismRequest {
  method: string;
  path: string;
  query: Record<string, string[]>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * Prism's dynamic generator (JSON Schema Faker, the instance prism-http itself loads) adds random members
 * wherever a schema does not say `additionalProperties: false` (`"Duis_349": -52474563` beside `data`);
 * a mock answer holds only what the spec declares.
 */
function declaredMembersOnly(): void {
  const fromPrism = createRequire(createRequire(import.meta.url).resolve('@stoplight/prism-http'));
  (fromPrism('json-schema-faker') as { JSONSchemaFaker: { option(o: object): void } }).JSONSchemaFaker.option({ fillProperties: false });
}

export class PrismFallback {
  private ready?: Promise<{ prism: ReturnType<typeof createInstance>; operations: IHttpOperation[] }>;

  /** Reads the spec's operations and builds Prism (once); resolves when both are ready. */
  load() {
    this.ready ??= getHttpOperationsFromSpec(OPENAPI_FILE).then((operations) => (declaredMembersOnly(), {
      operations,
      prism: createInstance(
        { isProxy: false, validateRequest: false, validateResponse: false, checkSecurity: false, errors: false, upstreamProxy: undefined, mock: { dynamic: false } },
        { logger: silent as never },
      ),
    }));
    return this.ready;
  }

  /**
   * Prism's response for this request, or for an error status the problem the mock answers instead
   * (`problem`, preferences.ts); throws ProblemError for preferences the operation cannot honour.
   */
  async respond(
    op: Operation,
    request: PrismRequest,
  ): Promise<{ status: number; contentType?: string; body?: string; problem?: AskedProblem }> {
    const prefs = preferences(request.headers.prefer as string | undefined, request.query);
    const asked = askedProblem(op, prefs);
    if (asked) return { status: asked.status, problem: asked };
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
    if (output.statusCode >= 400) return { status: output.statusCode, problem: { status: output.statusCode, code: problemCode(op, output.statusCode, undefined) } };
    const headers = Object.fromEntries(Object.entries(output.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const body = output.body === undefined ? undefined : typeof output.body === 'string' ? output.body : JSON.stringify(output.body);
    return { status: output.statusCode, contentType: headers['content-type'], body };
  }
}
