/**
 * The requirement catalog (spec/requirements.yaml, docs/design.md §2), parsed and validated against
 * spec/requirements.schema.json once per process.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import Ajv2020 from 'ajv/dist/2020.js';
import { CATALOG_FILE, CATALOG_SCHEMA_FILE } from './paths.ts';

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
  const raw = parse(readFileSync(file, 'utf8')) as Omit<Catalog, 'byId'> & { requirements: Array<Omit<Requirement, 'family' | 'testable'> & { testable?: boolean }> };
  const validate = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync(CATALOG_SCHEMA_FILE, 'utf8')));
  if (!validate(raw)) {
    throw new Error(`${file} is not a valid catalog: ${validate.errors!.map((e) => `${e.instancePath} ${e.message}`).join('; ')}`);
  }
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
