/**
 * Every text an output directory holds, for searching: plain files, plus the entries of zip archives
 * (blob reports) and of the zip Playwright's HTML report embeds in its index.html.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';

function unzipTexts(zip: Uint8Array, name: string): Array<{ name: string; text: string }> {
  return Object.entries(unzipSync(zip)).flatMap(([entry, bytes]) =>
    entry.endsWith('.zip') ? unzipTexts(bytes, `${name}!${entry}`) : [{ name: `${name}!${entry}`, text: strFromU8(bytes) }],
  );
}

/** Every file under `dir` (recursively) as text, archives opened. */
export function outputTexts(dir: string): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      out.push(...outputTexts(path));
      continue;
    }
    const bytes = readFileSync(path);
    if (entry.endsWith('.zip')) {
      out.push(...unzipTexts(bytes, path));
      continue;
    }
    const text = bytes.toString('utf8');
    out.push({ name: path, text });
    const embedded = /<template id="playwrightReportBase64">data:application\/zip;base64,([A-Za-z0-9+/=]+)<\/template>/.exec(text);
    if (embedded) out.push(...unzipTexts(Buffer.from(embedded[1]!, 'base64'), `${path}#playwrightReportBase64`));
  }
  return out;
}
