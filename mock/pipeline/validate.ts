/**
 * Stage validate (docs/design.md §4, layer 5): the parameter errors the route stage found become one 400
 * `validation_error` naming each field; a valid request gets what its handler reads besides the
 * parameters (`origin`, the cursor codec of the current world).
 */
import { validationError } from '../http/problem.ts';
import type { CursorCodec } from '../http/cursor.ts';
import type { Exchange } from './exchange.ts';
import type { Step } from './stages.ts';

/**
 * The validate step; `cursors()` is the codec of the current world (it changes on reset), `origin()`
 * the mock's public origin (`--public-url`, else the bound address: never the client's Host header).
 */
export function validateStep(cursors: () => CursorCodec, origin: () => string): Step {
  return (ex: Exchange) => {
    if (ex.paramErrors.length) throw validationError(ex.paramErrors);
    ex.origin = origin();
    ex.cursors = cursors();
  };
}
