/**
 * The command-line tools the kit starts (Playwright's runner), found through Node's module
 * resolution from this file, never by a path relative to the kit's folder: installed as a dependency, the
 * kit's own node_modules may be empty because npm hoisted its dependencies into the caller's.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * The absolute path of the script `bin` of package `pkg` (its package.json `bin` field). Throws an Error
 * naming the package when it is not installed or has no such bin.
 */
export function binScript(pkg: string, bin: string): string {
  let manifest: string;
  try {
    manifest = require.resolve(`${pkg}/package.json`);
  } catch {
    throw new Error(`${pkg} is not installed (reinstall the kit from its tarball: docs/vendors.md, "Install")`);
  }
  const field = (JSON.parse(readFileSync(manifest, 'utf8')) as { bin?: string | Record<string, string> }).bin;
  const rel = typeof field === 'string' ? field : field?.[bin];
  if (!rel) throw new Error(`${pkg} has no bin named ${bin}`);
  return resolve(dirname(manifest), rel);
}

/** `node <script>` of Playwright's runner: the command and its leading arguments. */
export function playwrightCommand(): [string, string[]] {
  return [process.execPath, [binScript('@playwright/test', 'playwright')]];
}

/** Whether this kit lies under a node_modules folder (installed as a dependency, not a clone). */
export function installedUnderNodeModules(file = fileURLToPath(import.meta.url)): boolean {
  return file.split(/[\\/]/).includes('node_modules');
}

/**
 * NODE_OPTIONS for Playwright's runner and workers: `base`, plus tsx's loader when the kit is installed
 * under node_modules. Playwright compiles TypeScript only outside node_modules, so an installed kit's
 * suite (suites/**.ts) is compiled by tsx; in a clone Playwright's own loader compiles it and tsx would
 * never be consulted, yet registering it costs every worker ~0.3–0.5 s of CPU (its loader thread and
 * esbuild), paid again each time a failed test makes Playwright replace the worker.
 */
export function nodeOptionsWithTsx(base: string | undefined, installed = installedUnderNodeModules()): string {
  if (!installed) return base ?? '';
  const loader = pathToFileURL(require.resolve('tsx')).href;
  return [base, `--import=${loader}`].filter(Boolean).join(' ');
}
