/**
 * Rooms the size a reader can hold (docs/maintainers.md, "Where to put things"): no source file of the
 * kit — TypeScript and JavaScript, product, suites and tests alike, generated files aside — over 300
 * lines or 20 KB.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../../contract/paths.ts';

const MAX_LINES = 300;
const MAX_BYTES = 20 * 1024;

test('no source file over 300 lines or 20 KB', () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mts', '*.mjs'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.startsWith('node_modules/') && !f.startsWith('spec/generated/'));
  expect(files.length).toBeGreaterThan(200);
  const oversized = files.flatMap((f) => {
    const text = readFileSync(resolve(ROOT, f));
    const lines = text.toString('utf8').split('\n').length - (text.at(-1) === 0x0a ? 1 : 0);
    return lines > MAX_LINES || text.length > MAX_BYTES ? [`${f}: ${lines} lines, ${text.length} bytes`] : [];
  });
  expect(oversized).toEqual([]);
});
