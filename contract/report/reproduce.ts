/**
 * The reproduction of a recorded exchange (docs/design.md §6, docs/vendors.md, "Reading a report"): a `curl` command a person
 * pastes into a POSIX shell. Secrets are never written: the key of the request is a reference to the
 * variable named after its profile role (`-H "Authorization: Bearer $MMS_KEY_LIVE"`, the exchange's
 * `credential`); everything else is single-quoted (`'` written `'\''`). A binary body, or one the
 * evidence truncated, cannot be pasted: the command reads it from a file and says so.
 */
import type { EvidenceRecord } from '../exchange.ts';

/** `text` as one POSIX shell word: single-quoted, each `'` written `'\''`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A redacted key (`sk_live_****abcd`) or a raw one, as the evidence may hold it. */
const KEY = /sk_(?:live|test)_(?:\*{4})?[A-Za-z0-9]{4,}/g;

/** A header line whose masked key becomes `$variable`, double-quoted (`"`, `\`, `$` and `` ` `` escaped). */
function headerWithReference(name: string, value: string, variable: string): string {
  const escaped = `${name}: ${value}`.replace(/["\\$`]/g, '\\$&');
  const reference = (_m: string, at: number, whole: string) => (/\w/.test(whole[at + _m.length] ?? '') ? `\${${variable}}` : `$${variable}`);
  return `"${escaped.replace(KEY, reference)}"`;
}

/**
 * The `curl` command of an exchange, one option per line (joined by ` \` newlines); comment lines
 * (`# ...`) before it when the body must come from a file or the key is not one of the profile's.
 */
export function curlCommand(x: EvidenceRecord['exchanges'][number]): string {
  const notes: string[] = [];
  const parts = [`curl -i -X ${x.method} ${shellQuote(x.url)}`];
  for (const [name, value] of Object.entries(x.requestHeaders)) {
    if (name.toLowerCase() === 'authorization' && x.credential) parts.push(`-H ${headerWithReference('Authorization', value, x.credential)}`);
    else {
      if (name.toLowerCase() === 'authorization' && KEY.test(value)) notes.push('# the Authorization header held a key that is not one of the profile\'s (redacted here): put the key in its place');
      KEY.lastIndex = 0;
      parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
    }
  }
  if (x.requestBody !== undefined) {
    const binary = /^<(\d+) bytes>$/.exec(x.requestBody);
    const truncated = /… \((\d+) characters\)$/.exec(x.requestBody);
    if (binary) {
      notes.push(`# the request body was ${binary[1]} bytes of binary data (not recorded): save them as body.bin`);
      parts.push('--data-binary @body.bin');
    } else if (truncated) {
      notes.push(`# the request body had ${truncated[1]} characters; the report kept the first ones: save the whole body as body.txt`);
      parts.push('--data-binary @body.txt');
    } else parts.push(`--data-binary ${shellQuote(x.requestBody)}`);
  }
  if (x.credential) notes.unshift(`# export ${x.credential}=<the profile's key of that role>`);
  return [...notes, parts.join(' \\\n  ')].join('\n');
}
