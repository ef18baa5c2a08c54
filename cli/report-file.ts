/** Reading a conformance.json given on the command line, validated by spec/report.schema.json. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { ROOT } from '../contract/paths.ts';
import { cachedSchemaFileValidator } from '../contract/ajv-cache.ts';
import type { ConformanceReport } from '../contract/report/model.ts';
import { UsageError } from './exit-codes.ts';

export const REPORT_SCHEMA_FILE = resolve(ROOT, 'spec', 'report.schema.json');

let validateReport: ValidateFunction | undefined;


/** Problems of a parsed report against the published schema (empty when valid). */
export function reportProblems(report: unknown): string[] {
  const validate = (validateReport ??= cachedSchemaFileValidator('report', REPORT_SCHEMA_FILE));
  return validate(report) ? [] : validate.errors!.map((e) => `${e.instancePath || '(root)'} ${e.message}`);
}

/** Reads a report file; throws UsageError when it is missing, not JSON, or not a report. */
export function readReport(file: string): ConformanceReport {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new UsageError(`cannot read report ${file}: ${err.code ?? err.message}`);
  }
  const problems = reportProblems(raw);
  if (problems.length) throw new UsageError(`${file} is not a conformance report: ${problems.slice(0, 2).join('; ')}`);
  return raw as ConformanceReport;
}
