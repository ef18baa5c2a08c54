/**
 * What every hostile-target test asserts of what the kit wrote (docs/integrators.md, "Reliability"):
 * no secret in any file (zip archives and the HTML report's embedded zip opened entry by entry) or in
 * the console, no raw terminal escape in console text, no active HTML in HTML or Markdown, and JSON
 * files that parse.
 */
import { expect } from '@playwright/test';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync } from 'fflate';

/** The profile's secrets every hostile test sends: a live key, an `env:` header value, a credential header. */
export const SECRETS = {
  live: 'sk_live_HOSTILEhostile0123456789abcdef',
  other: 'sk_live_OTHERotherORG0123456789abcdefg',
  tenant: 'tenant-from-env-7f3a9c1e55',
  apiKey: 'gw-key-literal-b81d0c4e2a',
};

/** A profile whose secrets are SECRETS: keys, an `env:` header and a credential header. */
export function hostileProfileText(baseUrl: string): string {
  return JSON.stringify({
    baseUrl,
    keys: { live: [SECRETS.live], otherOrg: SECRETS.other },
    fixtures: {},
    bodies: {},
    headers: { 'X-Tenant': 'env:HOSTILE_TENANT', 'X-Api-Key': SECRETS.apiKey },
  });
}

/** Every file under `dir` as text (latin1), zip entries (and the HTML report's embedded zip) as files of their own. */
export function filesUnder(dir: string): Array<{ name: string; text: string }> {
  const out: Array<{ name: string; text: string }> = [];
  const add = (name: string, bytes: Uint8Array) => {
    if (bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) {
      for (const [entry, content] of Object.entries(unzipSync(bytes))) add(`${name}!${entry}`, content);
      return;
    }
    const text = Buffer.from(bytes).toString('latin1');
    out.push({ name, text });
    const embedded = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(text);
    if (embedded) add(`${name}!embedded`, Buffer.from(embedded[1]!, 'base64'));
  };
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isDirectory()) readdirSync(path).forEach((e) => visit(join(path, e)));
    else if (stat.isFile()) add(path, readFileSync(path));
  };
  if (existsSync(dir)) visit(dir);
  return out;
}

/** Asserts no secret of SECRETS appears in `text` (named `where`). */
export function expectNoSecret(text: string, where: string): void {
  for (const [name, secret] of Object.entries(SECRETS)) expect(text.includes(secret), `${name} secret in ${where}`).toBe(false);
}

/** Asserts console text holds no terminal escape or other control character but newline and tab. */
export function expectPlainConsole(text: string, where: string): void {
  // eslint-disable-next-line no-control-regex
  expect(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.exec(text)?.[0], `control character in ${where}`).toBeUndefined();
}

/** Asserts HTML or Markdown text holds none of the hostile target's active elements. */
export function expectNoActiveHtml(text: string, where: string): void {
  expect(/<(script>alert|img src=x|svg onload|iframe src="javascript|details open)/i.exec(text)?.[0], `active HTML in ${where}`).toBeUndefined();
}

/** Asserts every output of a folder: JSON parses, no secret anywhere, no active HTML in .html/.md, no escape in .md. */
export function expectCleanOutputs(dir: string): void {
  for (const { name, text } of filesUnder(dir)) {
    expectNoSecret(text, name);
    if (/\.json$/.test(name)) expect(() => JSON.parse(text), `${name} parses`).not.toThrow();
    if (/\.md$/.test(name) && !/test-results/.test(name)) {
      expectNoActiveHtml(text, name);
      expectPlainConsole(Buffer.from(text, 'latin1').toString('utf8'), name);
    }
    if (/(conformance|proxy|coverage)\.html$/.test(name)) expectNoActiveHtml(text, name);
  }
}
