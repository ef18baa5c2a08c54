/**
 * The kit's one disk cache of compiled Ajv code (ajv/dist/standalone), under
 * `node_modules/.cache/mms-conformance` (inside the project, so generated modules resolve ajv's runtime):
 * the suite's generators, the generative oracles, the request and response validators and the
 * validators of user files compile the same few hundred schemas in the runner, in every worker and in
 * the embedded mock, and Ajv's compiler cost each about a second of CPU. A module is keyed by the
 * spec's text (or the schema's), the view (contract/schema-view.ts), the options and the Ajv version; a
 * process that finds it only loads it, one that does not compiles once (Ajv's compiler loads on a miss
 * only) and writes it, atomically, for the next. A cache that cannot be written (read-only tree) falls
 * back to compiling in memory. The validators behave as Ajv's in-memory ones: same code, same errors.
 *
 * - `cachedStandalone(name, inputs, generate)`: one module of several validators (the response validators);
 * - `cachedCompiler(view)`: single schemas compiled over the component schemas, one file each;
 * - `cachedSchemaFileValidator(name, file)`: the JSON Schema of a file users give (profiles, reports).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { newAjv, createSchemaRegistry } from './ajv.ts';
import { CACHE_DIR, writeCacheFile } from './cache-file.ts';
import { OPENAPI_FILE } from './paths.ts';
import type { SchemaView } from './schema-view.ts';

/** Where generated validator modules live. */
export const VALIDATOR_CACHE_DIR = CACHE_DIR;
const require = createRequire(import.meta.url);
/** Changes when the cached files' shape changes. */
const FORMAT = 1;

let versionText: string | undefined;

/** The Ajv version and this cache's format: part of every key. */
function versionKey(): string {
  return (versionText ??= `${(require('ajv/package.json') as { version: string }).version} ${FORMAT}`);
}

/** What compiles schemas against the spec's component schemas: Ajv's own interface, the part the kit uses. */
export interface SchemaCompiler {
  /** The validator of `schema` (a schema in the compiler's view; `$ref`s to component ids resolve). Throws Ajv's errors for an invalid schema. */
  compile(schema: object): ValidateFunction;
  /** The validator of a registered schema by its `$id` (a component: `SCHEMA_BASE + name`), or undefined. */
  getSchema(ref: string): ValidateFunction | undefined;
}

let specKey: string | undefined;

/** The key of the single-schema files' folder: the spec's text and versionKey (read once per process). */
function specHash(): string {
  if (specKey) return specKey;
  specKey = createHash('sha256').update(readFileSync(OPENAPI_FILE)).update(versionKey()).digest('hex').slice(0, 16);
  return specKey;
}

/** A compiler whose compiled schemas come from, and go to, the disk cache. */
class CachedCompiler implements SchemaCompiler {
  private readonly memory = new Map<string, ValidateFunction>();
  private source?: ReturnType<typeof createSchemaRegistry>;
  private registry?: ReturnType<typeof createSchemaRegistry>;
  private readonly dir: string;
  private writable = true;

  constructor(private readonly view: SchemaView, private readonly verbose: boolean) {
    this.dir = resolve(VALIDATOR_CACHE_DIR, `schemas-${specHash()}`);
  }

  compile(schema: object): ValidateFunction {
    const text = JSON.stringify(schema);
    let v = this.memory.get(text);
    if (v) return v;
    const file = resolve(this.dir, `${this.view}${this.verbose ? '-verbose' : ''}-${createHash('sha256').update(text).digest('hex').slice(0, 24)}.cjs`);
    if (existsSync(file)) v = require(file) as ValidateFunction;
    else v = this.compileAndWrite(schema, file);
    this.memory.set(text, v);
    return v;
  }

  getSchema(ref: string): ValidateFunction | undefined {
    this.registry ??= createSchemaRegistry(this.view, { verbose: this.verbose });
    return this.registry.getSchema(ref);
  }

  /** Compiles `schema` with a code-keeping registry and writes its standalone module to `file` (atomically). */
  private compileAndWrite(schema: object, file: string): ValidateFunction {
    if (!this.writable) return this.inMemory(schema);
    this.source ??= createSchemaRegistry(this.view, { source: true, verbose: this.verbose });
    const validate = this.source.compile(schema);
    try {
      writeCacheFile(file, standaloneSource(this.source, validate));
    } catch {
      this.writable = false;
    }
    return validate;
  }

  private inMemory(schema: object): ValidateFunction {
    this.registry ??= createSchemaRegistry(this.view, { verbose: this.verbose });
    return this.registry.compile(schema);
  }
}

const compilers = new Map<string, CachedCompiler>();

/** A new cached compiler with an empty memory (it still reads and writes the disk cache): for tests. */
export function freshCachedCompiler(view: SchemaView, options: { verbose?: boolean } = {}): SchemaCompiler {
  return new CachedCompiler(view, options.verbose === true);
}

/**
 * The process's cached compiler of `view` (`verbose`: errors carry their schema and data, as the
 * request validators' cross-field sentences need, contract/cross-field.ts).
 */
export function cachedCompiler(view: SchemaView, options: { verbose?: boolean } = {}): SchemaCompiler {
  const verbose = options.verbose === true;
  const key = `${view} ${verbose}`;
  let c = compilers.get(key);
  if (!c) compilers.set(key, (c = new CachedCompiler(view, verbose)));
  return c;
}

/**
 * Ajv's standalone code of `ajv` exporting `refs` (name → schema id), or exporting one compiled function
 * as the module itself; Ajv's code generator loads on a miss only.
 */
export function standaloneSource(ajv: unknown, refs: Record<string, string> | ValidateFunction): string {
  const standaloneCode = (require('ajv/dist/standalone/index.js') as { default: (a: unknown, refs: Record<string, string> | ValidateFunction) => string }).default;
  return standaloneCode(ajv, refs);
}

/** The cache file of a standalone module named `name`, keyed by `inputs` and versionKey. */
function cacheFile(name: string, inputs: Array<string | Buffer>): string {
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(input);
  return resolve(VALIDATOR_CACHE_DIR, `${name}-${hash.update(versionKey()).digest('hex').slice(0, 16)}.cjs`);
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
