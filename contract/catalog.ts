/**
 * The requirement catalog (spec/requirements.yaml, docs/design.md §2), parsed and validated against
 * spec/requirements.schema.json once per process. The catalog's YAML, once parsed and found valid, is
 * kept as JSON in node_modules/.cache/mms-conformance keyed by the catalog's and the schema's text, so
 * the report at the end of every run skips the YAML parser and Ajv (about 0.3 s); they load on a miss only.
 */
import type { RequirementId } from '../spec/generated/requirement-ids.ts';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CACHE_DIR, writeCacheFile } from './cache-file.ts';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { CATALOG_FILE, CATALOG_SCHEMA_FILE } from './paths.ts';

const require = createRequire(import.meta.url);

export type Level = 'must' | 'inferred';

/** One testable (or explicitly untestable) statement of the description. */
export interface Requirement {
  id: string;
  family: string;
  source: string;
  level: Level;
  statement: string;
  testable: boolean;
  reason?: string;
  /** The sentence(s) of docs/api-v1.md a `must` rests on, verbatim (checked by spec/test/catalog-quotes.test.ts). */
  quote?: Quote[];
}

/** One quoted passage: a plain string lies in the requirement's `source` section; else in `section`. */
export type Quote = string | { section: string; text: string };

/** The section a quote lies in (`A › B` for a subsection of A) and its text. */
export function quoteParts(req: Pick<Requirement, 'source'>, quote: Quote): { section: string; text: string } {
  return typeof quote === 'string' ? { section: req.source, text: quote } : quote;
}

export interface Catalog {
  version: string;
  api: string;
  families: Record<string, string>;
  requirements: Requirement[];
  byId: Map<string, Requirement>;
}

let cached: Catalog | undefined;

/**
 * Loads the catalog. Throws when it does not validate against its schema, repeats an id, or uses a
 * family prefix that `families` does not name.
 */
export function loadCatalog(file = CATALOG_FILE): Catalog {
  if (cached && file === CATALOG_FILE) return cached;
  const raw = validCatalogDocument(file);
  const byId = new Map<string, Requirement>();
  const requirements = raw.requirements.map((r) => {
    const family = r.id.split('-')[0]!;
    if (!raw.families[family]) throw new Error(`${file}: ${r.id} uses family ${family}, which 'families' does not name`);
    if (byId.has(r.id)) throw new Error(`${file}: ${r.id} appears twice`);
    const req: Requirement = { ...r, family, testable: r.testable !== false };
    byId.set(r.id, req);
    return req;
  });
  const catalog = { ...raw, requirements, byId };
  if (file === CATALOG_FILE) cached = catalog;
  return catalog;
}

type CatalogDocument = Omit<Catalog, 'byId'> & { requirements: Array<Omit<Requirement, 'family' | 'testable'> & { testable?: boolean }> };

/**
 * The catalog file parsed and validated against its schema: from the JSON cache when this text and
 * schema were validated before, else parsed (YAML) and validated (Ajv), and cached (best effort: a
 * read-only tree parses every time). Throws when it does not validate.
 */
function validCatalogDocument(file: string): CatalogDocument {
  const text = readFileSync(file, 'utf8');
  const schemaText = readFileSync(CATALOG_SCHEMA_FILE, 'utf8');
  const cacheFile = resolve(CACHE_DIR, `catalog-${createHash('sha256').update(text).update('\0').update(schemaText).digest('hex').slice(0, 16)}.json`);
  try {
    return JSON.parse(readFileSync(cacheFile, 'utf8')) as CatalogDocument;
  } catch {
    /* not validated before: parse and validate below */
  }
  const { parse } = require('yaml') as typeof import('yaml');
  const Ajv2020 = (require('ajv/dist/2020.js') as { default: typeof import('ajv/dist/2020.js').default }).default;
  const raw = parse(text) as CatalogDocument;
  const validate = new Ajv2020({ allErrors: true }).compile(JSON.parse(schemaText));
  if (!validate(raw)) {
    throw new Error(`${file} is not a valid catalog: ${validate.errors!.map((e) => `${e.instancePath} ${e.message}`).join('; ')}`);
  }
  try {
    writeCacheFile(cacheFile, JSON.stringify(raw));
  } catch {
    /* a read-only tree: validate every time */
  }
  return raw;
}

/** A requirement id of the catalog (spec/generated/requirement-ids.ts, `npm run types`). */
export type { RequirementId };
