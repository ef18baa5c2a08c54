/**
 * Ajv for the spec's schemas (Ajv 2020-12 with ajv-formats): `newAjv`, and `createSchemaRegistry(view)`,
 * an instance holding every component schema of spec/openapi.yaml in one view (contract/schema-view.ts).
 * Compiled code is kept on disk by contract/ajv-cache.ts.
 */
import { createRequire } from 'node:module';
import type Ajv2020 from 'ajv/dist/2020.js';
import { loadOpenApi } from './openapi.ts';
import { SCHEMA_BASE, toView, type SchemaView } from './schema-view.ts';

export type AjvInstance = InstanceType<typeof Ajv2020>;

/**
 * Ajv 2020 with ajv-formats, loaded on first use: a worker whose validators come from standalone code
 * (contract/ajv-cache.ts) never loads Ajv's compiler.
 */
export function newAjv(options: ConstructorParameters<typeof Ajv2020>[0]): AjvInstance {
  const require = createRequire(import.meta.url);
  const Ajv = (require('ajv/dist/2020.js') as { default: typeof Ajv2020 }).default;
  const addFormats = (require('ajv-formats') as { default: (a: AjvInstance) => void }).default;
  const ajv = new Ajv(options);
  addFormats(ajv);
  return ajv;
}

/** The view and options of each registry createSchemaRegistry made (so compiles for it can come from the disk cache). */
const registryViews = new WeakMap<object, { view: SchemaView; verbose: boolean }>();

/**
 * An Ajv instance holding every component schema of the spec in the given view (`verbose`: errors
 * carry their schema and data). It is built on first use: a registry only handed to
 * compileRequestValidator, whose compiles come from the disk cache of its view, never loads Ajv nor
 * checks every component against the meta-schema (0.1–0.2 s of CPU in each process that did).
 */
export function createSchemaRegistry(view: SchemaView, options: { source?: boolean; verbose?: boolean } = {}): AjvInstance {
  let built: AjvInstance | undefined;
  const real = () => (built ??= buildSchemaRegistry(view, options));
  const registry = new Proxy({} as AjvInstance, {
    get: (_target, property) => {
      const r = real();
      const value: unknown = Reflect.get(r, property, r);
      return typeof value === 'function' ? value.bind(r) : value;
    },
    set: (_target, property, value) => Reflect.set(real(), property, value),
    has: (_target, property) => Reflect.has(real(), property),
  });
  registryViews.set(registry, { view, verbose: options.verbose === true });
  return registry;
}

/** The registry itself (createSchemaRegistry builds it on first use). */
function buildSchemaRegistry(view: SchemaView, options: { source?: boolean; verbose?: boolean }): AjvInstance {
  const ajv = newAjv({ strict: true, strictRequired: false, strictTypes: false, allErrors: true, allowUnionTypes: true, validateFormats: true, verbose: options.verbose === true, code: { source: options.source === true } });
  for (const [name, schema] of Object.entries(loadOpenApi().components.schemas)) {
    const viewed = toView(schema, view);
    ajv.addSchema(typeof viewed === 'boolean' ? { $id: SCHEMA_BASE + name } : { ...viewed, $id: SCHEMA_BASE + name });
  }
  return ajv;
}

/** The view and options `registry` was made with, when createSchemaRegistry made it. */
export function registryView(registry: object): { view: SchemaView; verbose: boolean } | undefined {
  return registryViews.get(registry);
}
