/** spec/generated/ is what the generators make of the spec today (`npm run types`): api.ts (contract/generate-types.ts, openapi-typescript) and the catalog's requirement ids. */
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { TYPES_FILE } from '../../contract/paths.ts';
import { generateTypes } from '../../contract/generate-types.ts';

test('the generated types are fresh', async () => {
  expect(readFileSync(TYPES_FILE, 'utf8'), 'spec/generated/api.ts is stale: run npm run types').toBe(await generateTypes());
});

test('a value set the spec infers is typed by its JSON type, a stated one as its union', () => {
  const types = readFileSync(TYPES_FILE, 'utf8');
  expect(types).toMatch(/MeterType: string;/);
  expect(types).toMatch(/PartStatus: "assigned" \| "reserved" \| "kitted" \| "staged" \| "issued";/);
});

test('the generated requirement ids are the catalog\'s', async () => {
  const { REQUIREMENT_IDS_FILE, requirementIdsModule } = await import('../../tools/write-requirement-ids.ts');
  const text = readFileSync(REQUIREMENT_IDS_FILE, 'utf8');
  expect(text, 'spec/generated/requirement-ids.ts is stale: run npm run types').toBe(requirementIdsModule());
  expect(text).toContain("| 'AUTH-001'");
});
