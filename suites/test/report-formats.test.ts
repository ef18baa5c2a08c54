/** The report's formats (docs/vendors.md, "Reading a report", "Waivers"; docs/ci.md, "Baselines"): schema-valid JSON, JUnit per requirement, Markdown, waivers, diff. */
import { test, expect } from '@playwright/test';
import { loadOperations } from '../../contract/openapi.ts';
import { computeCoverage } from '../../contract/report/coverage.ts';
import { XMLParser } from 'fast-xml-parser';
import { loadCatalog } from '../../contract/catalog.ts';
import { buildReport } from '../reporter/verdicts.ts';
import { renderJunit } from '../../contract/report/junit.ts';
import { renderMarkdown } from '../../contract/report/markdown.ts';
import { renderHtml } from '../../contract/report/html.ts';
import { diffReports } from '../../contract/report/diff.ts';
import { reportProblems } from '../../cli/report-file.ts';
import type { TestOutcome, Waiver } from '../../contract/report/model.ts';

const catalog = loadCatalog();
const ctx = (waivers: Waiver[] = []) => ({ catalog, tool: { name: 't', version: '0' }, target: { name: 'x', baseUrl: 'http://x/v1', embedded: false }, spec: { title: 's', version: '1.0' }, startedAt: new Date('2026-11-22T10:00:00Z'), finishedAt: new Date('2026-11-22T10:01:00Z'), shard: null, waivers });
const evidence = { requests: 2, checkFailures: [], exchanges: [{ method: 'GET', url: 'http://x/v1/meters/m1', path: '/meters/m1', requestHeaders: { authorization: 'Bearer sk_live_****abcd' }, status: 500, responseHeaders: { 'content-type': 'application/problem+json' }, responseBody: '{"code":"boom"}', durationMs: 3, authenticated: true, retries: [] }] };
function outcomes(failing: string[]): TestOutcome[] {
  return catalog.requirements.filter((r) => r.testable).map((r) => ({
    id: r.id, title: `proves ${r.id}`, file: 'suites/conformance/x.spec.ts', line: 1, project: 'conformance', tags: [`@${r.id}`], durationMs: 5,
    status: failing.includes(r.id) ? 'failed' : 'passed', errors: failing.includes(r.id) ? [`${r.id} broke <here> & "there"`] : [],
    ...(failing.includes(r.id) ? { evidence } : {}),
  }));
}

test('a report validates against spec/report.schema.json', () => {
  expect(reportProblems(buildReport(outcomes(['METER-004']), ctx()))).toEqual([]);
  const withCoverage = { ...buildReport(outcomes(['METER-004']), ctx()), coverage: computeCoverage(loadOperations(), { listMeters: { statuses: [200, 418], inputs: ['query:limit'] } }) };
  expect(reportProblems(withCoverage), 'a report with its API coverage').toEqual([]);
  expect(reportProblems({ verdict: 'fine' })).not.toEqual([]);
});

test('root causes come first in the JSON, Markdown and HTML; the offending field is marked in the HTML', () => {
  const withCheck = outcomes(['METER-004']).map((o) => (o.id === 'METER-001' ? { ...o, evidence: { requests: 1, exchanges: [{ ...evidence.exchanges[0]!, status: 200, responseBody: '{"meta":{"pagination":{"has_more":false}}}' }], checkFailures: [{ check: 'schemaValid', requirement: 'SPEC-002', message: "listMeters 200 body: /meta/pagination must have required property 'cursor'", operationId: 'listMeters', status: 200, at: '/meta/pagination/cursor', exchange: 0 }] } } : o));
  const report = buildReport(withCheck, ctx());
  expect(reportProblems(report)).toEqual([]);
  expect(Object.keys(report).indexOf('rootCauses')).toBe(Object.keys(report).indexOf('verdict') + 1);
  expect(report.rootCauses.map((c) => c.requirements)).toEqual([['SPEC-002'], ['METER-004']]);
  const md = renderMarkdown(report);
  expect(md.indexOf('### 2 root causes')).toBeLessThan(md.indexOf('| level |'));
  expect(md).toContain('`listMeters` 200 `/meta/pagination/cursor`');
  const html = renderHtml(report);
  expect(html.indexOf('id="root-causes"')).toBeLessThan(html.indexOf('Failing must requirements'));
  expect(html).toContain('&quot;pagination&quot;: <mark>{\n      &quot;has_more&quot;: false\n    }</mark>');
});

test('JUnit has one test case per requirement; failed must requirements are failures, inferred ones are not', () => {
  const xml = renderJunit(buildReport(outcomes(['METER-004', 'AUTH-006']), ctx()));
  const doc = new XMLParser({ ignoreAttributes: false }).parse(xml);
  const cases = [doc.testsuites.testsuite].flat().flatMap((s: { testcase: unknown }) => [s.testcase].flat()) as Array<Record<string, unknown>>;
  expect(cases).toHaveLength(catalog.requirements.length);
  const byId = (id: string) => cases.find((c) => String(c['@_name']).startsWith(`${id} `))!;
  expect(byId('METER-004').failure).toBeTruthy();
  expect(byId('AUTH-006').failure).toBeUndefined();
  expect(byId('AUTH-006').skipped).toBeDefined();
  expect(byId('AUTH-012').skipped).toBeDefined();
  expect(byId('METER-001').failure).toBeUndefined();
});

test('the Markdown summary names the verdict and each failing must requirement', () => {
  const md = renderMarkdown(buildReport(outcomes(['METER-004']), ctx()));
  expect(md).toMatch(/^## Conformance: NOT CONFORMANT/);
  expect(md).toContain('| METER-004 |');
  expect(md).not.toContain('AUTH-006');
});

test('the HTML escapes what it shows and carries the evidence', () => {
  const html = renderHtml(buildReport(outcomes(['METER-004']), ctx()));
  expect(html).toContain('METER-004 broke &lt;here&gt; &amp; &quot;there&quot;');
  expect(html).not.toContain('<here>');
  expect(html).toContain('sk_live_****abcd');
  expect(html).not.toMatch(/<script src=|<link [^>]*href=|https?:\/\/(?!x\/v1)[a-z]/i);
});

test('an unexpired waiver turns a failure into waived and the verdict into incomplete; an expired one is ignored', () => {
  const waived = buildReport(outcomes(['METER-004']), ctx([{ requirement: 'METER-004', reason: 'known gap, fixed next release', expires: '2026-12-31' }]));
  expect(waived.verdict).toBe('incomplete');
  expect(waived.requirements.find((r) => r.id === 'METER-004')).toMatchObject({ verdict: 'waived', waiver: { expires: '2026-12-31' } });
  expect(waived.waivers[0]!.status).toBe('applied');
  const expired = buildReport(outcomes(['METER-004']), ctx([{ requirement: 'METER-004', reason: 'known gap, fixed next release', expires: '2026-11-21' }]));
  expect(expired.verdict).toBe('not conformant');
  expect(expired.waivers[0]!.status).toBe('expired');
  const unused = buildReport(outcomes([]), ctx([{ requirement: 'METER-004', reason: 'known gap, fixed next release', expires: '2026-12-31' }]));
  expect(unused.verdict).toBe('conformant');
  expect(unused.waivers[0]!.status).toBe('unused');
});

test('diff lists regressions and fixes', () => {
  const before = buildReport(outcomes(['METER-004']), ctx());
  const after = buildReport(outcomes(['METER-005']), ctx());
  const d = diffReports(before, after);
  expect(d.regressions.map((r) => r.id)).toEqual(['METER-005']);
  expect(d.fixes.map((r) => r.id)).toEqual(['METER-004']);
  expect(diffReports(after, after).regressions).toEqual([]);
});

test('a failed must shows the sentence of the description it rests on, in the JSON and the HTML', () => {
  const report = buildReport(outcomes(['METER-004', 'AUTH-006']), ctx());
  expect(reportProblems(report)).toEqual([]);
  const meter = report.requirements.find((r) => r.id === 'METER-004')!;
  expect(meter.verdict).toBe('failed');
  expect(meter.quote).toContainEqual({ section: 'Resources and their fields › Meter', text: 'asset_id | string | exactly one of asset_id or location_id is set when creating' });
  // An inferred requirement rests on no sentence: it carries none.
  expect(report.requirements.find((r) => r.id === 'AUTH-006')!.quote).toBeUndefined();
  const html = renderHtml(report);
  const failing = html.slice(html.indexOf('Failing must requirements'), html.indexOf('<h2>Families'));
  expect(failing).toContain('The description: “asset_id | string | exactly one of asset_id or location_id is set when creating”');
  const detail = html.slice(html.indexOf('id="req-METER-004"'));
  expect(detail.slice(0, detail.indexOf('</details>'))).toContain('<blockquote>asset_id | string | exactly one of asset_id or location_id is set when creating <span class="muted">— Resources and their fields › Meter</span></blockquote>');
});
