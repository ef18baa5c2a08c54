/**
 * Writes spec/generated/requirement-ids.ts: the union of the catalog's requirement ids
 * (spec/requirements.yaml), so that code naming a requirement (`proves`, a check, a mutant) names one
 * the catalog has. Part of `npm run types`; spec/test/types.test.ts fails when the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCatalog } from '../contract/catalog.ts';
import { ROOT } from '../contract/paths.ts';

export const REQUIREMENT_IDS_FILE = resolve(ROOT, 'spec/generated/requirement-ids.ts');

/** The module's text for the catalog as it is. */
export function requirementIdsModule(): string {
  const ids = loadCatalog().requirements.map((r) => r.id);
  return `/** Generated from spec/requirements.yaml by \`npm run types\` (tools/write-requirement-ids.ts): do not edit. */\nexport type RequirementId =\n${ids.map((id) => `  | '${id}'`).join('\n')};\n`;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(ROOT, 'tools/write-requirement-ids.ts')) {
  writeFileSync(REQUIREMENT_IDS_FILE, requirementIdsModule());
  process.stdout.write('spec/generated/requirement-ids.ts written\n');
}
