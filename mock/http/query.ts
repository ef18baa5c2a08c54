/**
 * Query strings: every value given for each (case-sensitive) name, decoded as URLSearchParams decodes
 * them (`+` is a space, percent-escapes; a malformed escape stays literal). Node's `querystring.parse`
 * does the work: it is several times faster than URLSearchParams on the hot path and its result has no
 * prototype, so a parameter named like an Object method (`valueOf`, `__proto__`) is just a name.
 */
import { parse } from 'node:querystring';

export function parseQuery(search: string): Record<string, string[]> {
  const parsed = parse(search, '&', '=', { maxKeys: 0 });
  const out = parsed as unknown as Record<string, string[]>;
  for (const name in parsed) {
    const value = parsed[name];
    if (typeof value === 'string') out[name] = [value];
  }
  return out;
}
