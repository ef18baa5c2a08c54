/** spec/generated/api.ts is what `npm run types` (contract/generate-types.ts, openapi-typescript) makes of spec/openapi.yaml today. */
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
