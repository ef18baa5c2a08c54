/**
 * Ajv validators of single schemas over the spec's component schemas, compiled once per schema and kept
 * on disk as standalone code (ajv/dist/standalone): the suite's generators, the generative oracles and
 * the request validators compile the same few hundred schemas in the runner, in every worker and in the
 * embedded mock, and Ajv's compiler cost each of them about a second of CPU. A file
 * `node_modules/.cache/mms-conformance/schemas-<spec>/<view>-<schema>.cjs` is keyed by the spec's text,
 * the view (contract/schema-view.ts), the options and the schema's text; a process that finds it only
 * loads it, one that does not compiles the schema once (Ajv's compiler loads on a miss only) and writes
 * it for the next. The validators behave as Ajv's in-memory ones: same code, same errors (with
 * `verbose`, the same `schema` and `data` members). A cache that cannot be written (read-only tree)
 * falls back to compiling in memory.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeCacheFile } from './cache-file.ts';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { OPENAPI_FILE } from './paths.ts';
import type { SchemaView } from './schema-view.ts';
import { VALIDATOR_CACHE_DIR, standaloneSource } from './validator-cache.ts';
import { createSchemaRegistry } from './validators.ts';

const require = createRequire(import.meta.url);
/** Changes when the cached files' shape changes. */
const FORMAT = 1;

/** What compiles schemas against the spec's component schemas: Ajv's own interface, the part the kit uses. */
export interface SchemaCompiler {
  /** The validator of `schema` (a schema in the compiler's view; `$ref`s to component ids resolve). Throws Ajv's errors for an invalid schema. */
  compile(schema: object): ValidateFunction;
  /** The validator of a registered schema by its `$id` (a component: `SCHEMA_BASE + name`), or undefined. */
  getSchema(ref: string): ValidateFunction | undefined;
}

let specKey: string | undefined;

/** The spec's part of every key: its text and the Ajv version (loaded once per process). */
function specHash(): string {
  if (specKey) return specKey;
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  specKey = createHash('sha256').update(readFileSync(OPENAPI_FILE)).update(`${ajvVersion} ${FORMAT}`).digest('hex').slice(0, 16);
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
