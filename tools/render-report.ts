/**
 * Re-renders the HTML, JUnit and Markdown of an existing conformance.json (for working on the report's
 * looks without a run): tsx tools/render-report.ts reports/conformance.json [out-dir]
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeReports } from '../contract/report/write.ts';
import type { ConformanceReport } from '../contract/report/model.ts';

const [input = 'reports/conformance.json', out = dirname(input)] = process.argv.slice(2);
const paths = writeReports(JSON.parse(readFileSync(input, 'utf8')) as ConformanceReport, out);
process.stdout.write(`${Object.values(paths).join('\n')}\n`);
