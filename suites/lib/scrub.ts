/**
 * Redaction of files already written (docs/vendors.md, "Reading a report": no secret in any output): what Playwright
 * writes itself — its HTML report (with the zip it embeds in index.html and its data/ copies of
 * attachments), test-results/ (error-context.md) and blob reports — can hold a request's
 * `authorization` header, from the call log of a failed API call. Every file under the given folders is
 * rewritten with every secret masked: as bytes read as latin1 (keys are ASCII, so any other byte is
 * kept as it is), zip archives entry by entry (fflate), nested zips and the HTML report's embedded
 * base64 zip included.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import type { Redactor } from './redact.ts';

export interface ScrubCount { files: number; bytes: number; rewritten: string[] }

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const EMBEDDED_ZIP = /(<template id="playwrightReportBase64">data:application\/zip;base64,)([A-Za-z0-9+/=]+)(<\/template>)/;

/** The bytes with every secret masked (the same array when nothing changed). Throws when a zip is corrupt. */
export function scrubBytes(bytes: Uint8Array, redactor: Redactor): Uint8Array {
  if (isZip(bytes)) {
    const entries = unzipSync(bytes);
    let changed = false;
    for (const [name, content] of Object.entries(entries)) {
      const scrubbed = scrubBytes(content, redactor);
      if (scrubbed !== content) (entries[name] = scrubbed as Uint8Array<ArrayBuffer>), (changed = true);
    }
    return changed ? zipSync(entries) : bytes;
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  let out = redactor.text(text);
  const embedded = EMBEDDED_ZIP.exec(out);
  if (embedded) {
    const zip = Buffer.from(embedded[2]!, 'base64');
    const scrubbed = scrubBytes(zip, redactor);
    if (scrubbed !== zip) out = out.replace(EMBEDDED_ZIP, (_m, head: string, _b: string, tail: string) => `${head}${Buffer.from(scrubbed).toString('base64')}${tail}`);
  }
  return out === text ? bytes : Buffer.from(out, 'latin1');
}

/** Rewrites every file under `dirs` (those that exist) that holds a secret; counts what it read. */
export function scrubTree(dirs: string[], redactor: Redactor): ScrubCount {
  const count: ScrubCount = { files: 0, bytes: 0, rewritten: [] };
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isDirectory()) return readdirSync(path).forEach((entry) => visit(join(path, entry)));
    if (!stat.isFile()) return;
    const bytes = readFileSync(path);
    count.files++;
    count.bytes += bytes.length;
    const scrubbed = scrubBytes(bytes, redactor);
    if (scrubbed !== bytes) {
      writeFileSync(path, scrubbed);
      count.rewritten.push(path);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) visit(dir);
  return count;
}
