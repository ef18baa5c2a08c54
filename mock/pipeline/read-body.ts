/**
 * Stages readBody and validateBody (docs/design.md §4, layer 5): an operation that takes a body gets it
 * read (413 past the limit), its media type checked (415) and JSON parsed (400 when malformed) into
 * `ex.body`, or kept raw for uploads; a parsed body is then validated against the spec (400 naming
 * each field) and the modules of the entities it names are checked (403, authorize.ts).
 */
import { isJson, mediaType, parseJson, readBody } from '../http/body.ts';
import { ProblemError, invalid, validationError } from '../http/problem.ts';
import type { Exchange } from './exchange.ts';
import type { ModuleCheck } from './authorize.ts';
import type { Step } from './stages.ts';

/** The readBody step, accepting bodies up to `maxBytes` (default 1 MiB, http/body.ts). */
export function readBodyStep(maxBytes?: number): Step {
  return (ex: Exchange) => {
    if (!ex.op.requestBody) {
      ex.req.resume();
      return;
    }
    return readBody(ex.req, maxBytes).then((raw) => attachBody(ex, raw));
  };
}

/** Parses the body into `ex.body` (JSON operations), or keeps it raw (uploads). */
function attachBody(ex: Exchange, raw: Buffer): void {
  const requestBody = ex.op.requestBody!;
  const type = mediaType(ex.req.headers['content-type']);
  ex.contentType = type;
  if (!requestBody.mediaTypes.includes('application/json')) {
    if (raw.length === 0 && requestBody.required) throw invalid('body', '/', 'is required');
    ex.raw = raw;
    return;
  }
  if (raw.length === 0) {
    if (requestBody.required) throw invalid('body', '/', 'is required');
    return;
  }
  if (!isJson(type)) {
    throw new ProblemError(415, 'unsupported_media_type', `Send this body as application/json (got ${type ?? 'no Content-Type'}).`);
  }
  ex.body = parseJson(raw);
}

/** The validateBody step: a parsed JSON body (`ex.body` defined) against the spec, then its entities' modules. */
export function validateBodyStep(modules: ModuleCheck): Step {
  return (ex: Exchange) => {
    if (ex.body === undefined) return;
    const errors = ex.validator!.validateBody?.(ex.body) ?? [];
    if (errors.length) throw validationError(errors);
    if (ex.op.moduleOfEntity?.in === 'body') modules(ex.op, ex.org, ex.params, ex.body);
  };
}
