/**
 * Writes every format of a conformance report into a directory: conformance.json, conformance.html,
 * conformance-junit.xml, conformance.md and exchanges.har (also appended to $GITHUB_STEP_SUMMARY when set). Each file
 * is written to a temporary name in the same directory and renamed, so a failed write leaves no
 * truncated report.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConformanceReport } from './model.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';

import { REPORT_FILES } from './files.ts';

export { REPORT_FILES };

/** Writes `text` to `file` through a temporary file renamed into place; throws the write's error. */
function writeWhole(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
}

/**
 * Writes the report's files under `dir`, and `har` (contract/report/har.ts) as exchanges.har when given;
 * returns their paths. Throws the first write error.
 */
export function writeReports(report: ConformanceReport, dir: string, har?: string): Record<keyof typeof REPORT_FILES, string> {
  mkdirSync(dir, { recursive: true });
  const paths = Object.fromEntries(Object.entries(REPORT_FILES).map(([k, f]) => [k, resolve(dir, f)])) as Record<keyof typeof REPORT_FILES, string>;
  writeWhole(paths.json, `${JSON.stringify(report, null, 2)}\n`);
  writeWhole(paths.html, renderHtml(report));
  writeWhole(paths.junit, renderJunit(report));
  const markdown = renderMarkdown(report);
  writeWhole(paths.markdown, markdown);
  if (har !== undefined) writeWhole(paths.har, har);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown);
  return paths;
}
