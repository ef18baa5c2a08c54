/** Writing the kit's on-disk caches (validators, parsed spec and catalog) so readers never see half a file. */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ROOT } from './paths.ts';

/** The folder of every cache the kit writes (inside the project, so generated modules resolve ajv's runtime). */
export const CACHE_DIR = resolve(ROOT, 'node_modules', '.cache', 'mms-conformance');

/**
 * Writes `text` to `file` through a temporary file of this process and a rename (atomic on one file
 * system), creating the folder first. Throws what the file system throws (a read-only tree): callers
 * that can do without the cache catch it.
 */
export function writeCacheFile(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}
