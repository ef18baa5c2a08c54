/**
 * Writes every format of a conformance report into a directory: conformance.json, conformance.html,
 * conformance-junit.xml and conformance.md (also appended to $GITHUB_STEP_SUMMARY when set).
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ConformanceReport } from './model.ts';
import { renderHtml } from './html.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';

export const REPORT_FILES = { json: 'conformance.json', html: 'conformance.html', junit: 'conformance-junit.xml', markdown: 'conformance.md' } as const;

/** Writes the report's files under `dir`; returns their paths. */
export function writeReports(report: ConformanceReport, dir: string): Record<keyof typeof REPORT_FILES, string> {
  mkdirSync(dir, { recursive: true });
  const paths = Object.fromEntries(Object.entries(REPORT_FILES).map(([k, f]) => [k, resolve(dir, f)])) as Record<keyof typeof REPORT_FILES, string>;
  writeFileSync(paths.json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(paths.html, renderHtml(report));
  writeFileSync(paths.junit, renderJunit(report));
  const markdown = renderMarkdown(report);
  writeFileSync(paths.markdown, markdown);
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown);
  return paths;
}
