/**
 * Waiver files (docs/vendors.md, "Waivers"): a vendor's declared known deviations, like the OpenID conformance suite's
 * expected failures. YAML or JSON, validated by spec/waivers.schema.json:
 *
 *   waivers:
 *     - requirement: METER-011
 *       reason: Automations are not exposed yet; fixed in 2.4 (ticket OPS-118)
 *       expires: 2027-03-31
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { ROOT } from '../paths.ts';
import type { Waiver } from './model.ts';

export const WAIVERS_SCHEMA_FILE = resolve(ROOT, 'spec', 'waivers.schema.json');

// YAML and Ajv load when a waiver file is read, not with the reporter (every run loads it, few have waivers).
const require = createRequire(import.meta.url);

/** Reads and validates a waiver file; throws an Error with one line naming the problem. */
export function loadWaivers(file: string): Waiver[] {
  const { parse } = require('yaml') as typeof import('yaml');
  const Ajv2020 = (require('ajv/dist/2020.js') as { default: typeof import('ajv/dist/2020.js').default }).default;
  const addFormats = (require('ajv-formats') as { default: unknown }).default;
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new Error(`cannot read waivers ${file}: ${err.code ?? err.message.split('\n')[0]}`);
  }
  const ajv = new Ajv2020({ allErrors: true });
  (addFormats as unknown as (a: unknown) => void)(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(WAIVERS_SCHEMA_FILE, 'utf8')));
  if (!validate(raw)) {
    throw new Error(`${file} is not a valid waiver file: ${validate.errors!.slice(0, 3).map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ')}`);
  }
  return (raw as { waivers: Waiver[] }).waivers.map((w) => ({ ...w, expires: String(w.expires) }));
}
