/**
 * Files and folders given on the command line, checked before anything runs: a waiver file
 * (spec/waivers.schema.json) and the output folder. Each problem is a UsageError of one line (exit 2).
 */
import { accessSync, constants, lstatSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from './exit-codes.ts';

/**
 * Validates a waiver file (docs/vendors.md, "Waivers"); resolves to its absolute path. Rejects with
 * UsageError. The waivers' reader (YAML, Ajv) loads only when a file is given.
 */
export async function checkedWaivers(file: string): Promise<string> {
  const path = resolve(file);
  const { loadWaivers } = await import('../contract/report/waivers.ts');
  try {
    loadWaivers(path);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  return path;
}

/**
 * Creates the output folder when missing and checks it is writable, and that each of `files` (names
 * the command writes there) is absent or a regular file; returns its absolute path. Throws UsageError.
 */
export function checkedOutput(dir: string, files: readonly string[] = []): string {
  const path = resolve(dir);
  try {
    mkdirSync(path, { recursive: true });
    accessSync(path, constants.W_OK);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`cannot write to the output folder ${dir}: ${err.code ?? err.message}`);
  }
  for (const name of files) {
    let stat;
    try {
      stat = lstatSync(join(path, name));
    } catch {
      continue;
    }
    if (!stat.isFile()) throw new UsageError(`${join(dir, name)} is a ${stat.isDirectory() ? 'folder' : 'link or special file'}, not a report file: remove it or choose another --output`);
  }
  return path;
}
