/**
 * The suite's response validators without compiling them in every worker (docs/design.md §5): the first
 * process to need them generates Ajv standalone code for every response schema (ajv/dist/standalone)
 * into `node_modules/.cache/mms-conformance/validators-<hash>.cjs`, keyed by the spec's text, the view
 * and the Ajv version; every later worker only loads that module (milliseconds instead of seconds).
 * The same cache serves other schemas a worker validates against (the target profile's). Ajv's
 * compiler and code generator are loaded only on a miss. A cache that cannot be written (read-only
 * tree) falls back to compiling in memory.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { CACHE_DIR, writeCacheFile } from './cache-file.ts';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { OPENAPI_FILE } from './paths.ts';
import type { SchemaView } from './schema-view.ts';
import { compileResponseValidators, createSchemaRegistry, newAjv, responseSchemas, type ResponseValidator } from './validators.ts';

/** Where generated validator modules live (inside the project, so they resolve ajv's runtime). */
export const VALIDATOR_CACHE_DIR = CACHE_DIR;
const FORMAT = 1;
const require = createRequire(import.meta.url);

/** The cache file of a standalone module named `name`, keyed by `inputs` and the Ajv version. */
function cacheFile(name: string, inputs: Array<string | Buffer>): string {
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(input);
  return resolve(VALIDATOR_CACHE_DIR, `${name}-${hash.update(`${ajvVersion} ${FORMAT}`).digest('hex').slice(0, 16)}.cjs`);
}

/**
 * Ajv's standalone code of `ajv` exporting `refs` (name → schema id), or exporting one compiled function
 * as the module itself; Ajv's code generator loads on a miss only.
 */
export function standaloneSource(ajv: unknown, refs: Record<string, string> | ValidateFunction): string {
  const standaloneCode = (require('ajv/dist/standalone/index.js') as { default: (a: unknown, refs: Record<string, string> | ValidateFunction) => string }).default;
  return standaloneCode(ajv, refs);
}

/**
 * The exports of a cached standalone module: loaded from the cache file keyed by `inputs`, generated
 * by `generate` first when absent. Throws when it can be neither loaded nor written (callers compile
 * in memory instead).
 */
export function cachedStandalone(name: string, inputs: Array<string | Buffer>, generate: () => string): Record<string, ValidateFunction> {
  const file = cacheFile(name, inputs);
  if (!existsSync(file)) {
    writeCacheFile(file, generate());
  }
  return require(file) as Record<string, ValidateFunction>;
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
  return standaloneSource(ajv, exports);
}

/** The response validators (as compileResponseValidators), loaded from the cache, generating it if absent. */
export function cachedResponseValidators(view: SchemaView = 'stated'): Map<string, Map<number, ResponseValidator>> {
  try {
    const module = cachedStandalone(`validators-${view}`, [readFileSync(OPENAPI_FILE), `${view} `], () => standaloneValidators(view));
    const count = responseSchemas(view).length;
    return compileResponseValidators(view, Array.from({ length: count }, (_, i) => module[`v${i}`]!));
  } catch {
    return compileResponseValidators(view);
  }
}

/**
 * The validator of the JSON Schema in `schemaFile` (strict, all errors): standalone code cached under
 * `name` by the schema's text, compiled in memory when the cache cannot be written. Used for the files
 * the kit reads given by users (profiles, reports), whose schemas would otherwise compile in every process.
 */
export function cachedSchemaFileValidator(name: string, schemaFile: string): ValidateFunction {
  const text = readFileSync(schemaFile, 'utf8');
  const ajv = () => newAjv({ allErrors: true, strict: true, code: { source: true } });
  try {
    return cachedStandalone(name, [text], () => {
      const schema = JSON.parse(text) as { $id?: string };
      const id = schema.$id ?? `urn:mms:${name}`;
      const registry = ajv();
      registry.addSchema({ ...schema, $id: id });
      return standaloneSource(registry, { validate: id });
    }).validate!;
  } catch {
    return ajv().compile(JSON.parse(text));
  }
}
