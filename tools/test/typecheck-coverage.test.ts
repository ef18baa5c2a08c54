/**
 * `npm run typecheck` covers the whole kit: every git-tracked `.ts` file (outside node_modules and the
 * generated spec/generated/) is a root file of tsconfig.json's program, so no module escapes `tsc -p .`.
 */
import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../contract/paths.ts';

/** The files tsconfig.json puts in the program, as absolute paths. */
function programFiles(): Set<string> {
  const file = resolve(ROOT, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT, undefined, file);
  return new Set(parsed.fileNames.map((f) => resolve(f)));
}

test('every tracked .ts file is type-checked', () => {
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && !f.startsWith('node_modules/') && !f.startsWith('spec/generated/'));
  expect(tracked.length, 'git lists the kit\'s sources').toBeGreaterThan(100);
  expect(tracked).toContain('cli/main.ts');
  const program = programFiles();
  expect(tracked.filter((f) => !program.has(resolve(ROOT, f)))).toEqual([]);
});
