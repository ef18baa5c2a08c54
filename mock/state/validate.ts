/**
 * Validation of state documents (spec/mock-state.schema.json) with the kit's Ajv: `PUT /__mock/state`
 * and `--seed-file` refuse a bad document before anything changes; mock/state/bounds.ts bounds what
 * the schema does not (depth, numbers, duplicate organization ids).
 */
import { readFileSync } from 'node:fs';
import { newAjv } from '../../contract/ajv.ts';
import { invalid, type ProblemError } from '../http/problem.ts';
import { stateBoundsError } from './bounds.ts';
import type { StateDocument } from './document.ts';

const SCHEMA_URL = new URL('../../spec/mock-state.schema.json', import.meta.url);

let compiled: ((doc: unknown) => boolean) & { errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> | null } | undefined;

/**
 * The first schema violation of `doc` as `{ pointer, message }` (pointer: JSON Pointer into the
 * document, e.g. `/organizations/0/settings/currency`), or undefined when `doc` is a state document.
 */
export function stateDocumentError(doc: unknown): { pointer: string; message: string } | undefined {
  // Bounds first: their walk is iterative, so a document too deep for the schema's validator is a 400 too.
  const bound = stateBoundsError(doc);
  if (bound) return bound;
  compiled ??= newAjv({ strict: true, strictTypes: false, strictRequired: false, allErrors: false, allowUnionTypes: true }).compile(JSON.parse(readFileSync(SCHEMA_URL, 'utf8')));
  if (compiled(doc)) return undefined;
  const e = compiled.errors![0]!;
  const extra = e.params?.additionalProperty ?? e.params?.missingProperty;
  const pointer = extra === undefined ? e.instancePath : `${e.instancePath}/${String(extra)}`;
  return { pointer: pointer || '/', message: e.message ?? 'is invalid' };
}

/** `doc` as a state document; throws 400 problem details naming the first bad field. */
export function checkStateDocument(doc: unknown): StateDocument {
  const error = stateDocumentError(doc);
  if (error) throw invalid('body', error.pointer, error.message) as ProblemError;
  return doc as StateDocument;
}
