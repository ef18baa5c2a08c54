/**
 * The suite's response validators without compiling them in every worker (docs/design.md §5): the first
 * process to need them generates Ajv standalone code for every response schema (ajv/dist/standalone)
 * into `node_modules/.cache/mms-conformance/validators-<hash>.cjs`, keyed by the spec's text, the view
 * and the Ajv version; every later worker only loads that module (milliseconds instead of seconds).
 * A cache that cannot be written (read-only tree) falls back to compiling in memory.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { OPENAPI_FILE, ROOT } from './paths.ts';
import type { SchemaView } from './schema-view.ts';
import { compileResponseValidators, createSchemaRegistry, responseSchemas, type ResponseValidator } from './validators.ts';

/** Where generated validator modules live (inside the project, so they resolve ajv's runtime). */
export const VALIDATOR_CACHE_DIR = resolve(ROOT, 'node_modules', '.cache', 'mms-conformance');
const FORMAT = 1;

function cacheFile(view: SchemaView): string {
  const require = createRequire(import.meta.url);
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  const hash = createHash('sha256').update(readFileSync(OPENAPI_FILE)).update(`${view} ${ajvVersion} ${FORMAT}`).digest('hex').slice(0, 16);
  return resolve(VALIDATOR_CACHE_DIR, `validators-${view}-${hash}.cjs`);
}

/** Generates the standalone module's source: exports `v0`…`vN` in the order of `responseSchemas(view)`. */
export function standaloneValidators(view: SchemaView): string {
  const ajv = createSchemaRegistry(view, { source: true });
  const exports: Record<string, string> = {};
  responseSchemas(view).forEach((s, i) => {
    const id = `urn:mms:response:${i}`;
    ajv.addSchema({ ...s.schema, $id: id });
    exports[`v${i}`] = id;
  });
  return (standaloneCode as unknown as (a: typeof ajv, refs: Record<string, string>) => string)(ajv, exports);
}

/** The response validators (as compileResponseValidators), loaded from the cache, generating it if absent. */
export function cachedResponseValidators(view: SchemaView = 'stated'): Map<string, Map<number, ResponseValidator>> {
  const file = cacheFile(view);
  try {
    if (!existsSync(file)) {
      mkdirSync(VALIDATOR_CACHE_DIR, { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, standaloneValidators(view));
      renameSync(temporary, file);
    }
    const module = createRequire(import.meta.url)(file) as Record<string, ValidateFunction>;
    const count = responseSchemas(view).length;
    return compileResponseValidators(view, Array.from({ length: count }, (_, i) => module[`v${i}`]!));
  } catch {
    return compileResponseValidators(view);
  }
}
