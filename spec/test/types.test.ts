/** spec/generated/api.ts is what openapi-typescript makes of spec/openapi.yaml today (`npm run types`). */
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
