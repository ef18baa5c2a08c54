/** spec/generated/ is what the generators make of the spec today (`npm run types`): openapi-typescript's api.ts and the catalog's requirement ids. */
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OPENAPI_FILE, TYPES_FILE, ROOT } from '../../contract/paths.ts';

test('the generated types are fresh', () => {
  const out = join(mkdtempSync(join(tmpdir(), 'types-')), 'api.ts');
  execFileSync(join(ROOT, 'node_modules/.bin/openapi-typescript'), [OPENAPI_FILE, '-o', out], { stdio: 'pipe' });
  expect(readFileSync(TYPES_FILE, 'utf8'), 'spec/generated/api.ts is stale: run npm run types').toBe(readFileSync(out, 'utf8'));
});

test('the generated requirement ids are the catalog\'s', async () => {
  const { REQUIREMENT_IDS_FILE, requirementIdsModule } = await import('../../tools/write-requirement-ids.ts');
  const text = readFileSync(REQUIREMENT_IDS_FILE, 'utf8');
  expect(text, 'spec/generated/requirement-ids.ts is stale: run npm run types').toBe(requirementIdsModule());
  expect(text).toContain("| 'AUTH-001'");
});
