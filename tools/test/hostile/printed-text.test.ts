/**
 * What a target chose to say, printed (docs/integrators.md, "Reliability"): a failure message, a
 * root cause and a curl line carrying the hostile target's terminal escapes, active HTML and Markdown
 * reach `run`'s console without control characters, and the Markdown summary (also appended to
 * $GITHUB_STEP_SUMMARY) without raw HTML outside code and without breaking out of its tables and
 * fences; the proxy's live lines likewise.
 */
import { test, expect } from '@playwright/test';
import { loadCatalog } from '../../../contract/catalog.ts';
import { buildReport } from '../../../suites/reporter/verdicts.ts';
import { renderFailures } from '../../../contract/report/console.ts';
import { renderMarkdown } from '../../../contract/report/markdown.ts';
import type { TestOutcome } from '../../../contract/report/model.ts';
import { ACTIVE_HTML, ESCAPES, MARKDOWN } from './server.ts';
import { expectNoActiveHtml, expectPlainConsole } from './checks.ts';

const HOSTILE = `${ESCAPES} ${ACTIVE_HTML} ${MARKDOWN}`;
const catalog = loadCatalog();

/** A report where one requirement failed with the hostile text in its message, check failure and exchange. */
function hostileReport() {
  const body = JSON.stringify({ type: HOSTILE, code: HOSTILE, title: HOSTILE });
  const evidence = {
    requests: 1,
    checkFailures: [{ check: 'problemDetails', requirement: 'ERR-001', message: `problem code ${HOSTILE} is not documented`, operationId: 'listMeters', status: 400, at: `/code/${HOSTILE}`, exchange: 0 }],
    exchanges: [{ method: 'GET', url: `http://x/v1/meters?q=${encodeURIComponent(HOSTILE)}`, path: '/meters', requestHeaders: {}, status: 400, responseHeaders: { 'content-type': 'application/problem+json', 'x-request-id': HOSTILE }, responseBody: body, durationMs: 1, authenticated: true, retries: [] }],
  };
  const outcomes: TestOutcome[] = catalog.requirements.filter((r) => r.testable).map((r) => ({
    id: r.id, title: `proves ${r.id}`, file: 'suites/conformance/x.spec.ts', line: 1, project: 'conformance', tags: [`@${r.id}`], durationMs: 1,
    status: r.id === 'METER-004' ? 'failed' : 'passed', errors: r.id === 'METER-004' ? [`expected 400, got ${HOSTILE}`] : [],
    ...(r.id === 'METER-004' ? { evidence } : {}),
  }));
  return buildReport(outcomes, { catalog, tool: { name: 't', version: '0' }, target: { name: HOSTILE, baseUrl: 'http://x/v1', embedded: false }, spec: { title: 's', version: '1.0' }, startedAt: new Date(0), finishedAt: new Date(1000), shard: null, waivers: [] });
}

test('the console shows a target\'s escapes and HTML as inert text', () => {
  const printed = renderFailures(hostileReport());
  expect(printed).toContain('METER-004');
  expectPlainConsole(printed, JSON.stringify(printed));
});

test('the Markdown summary holds no raw HTML, no control character, and keeps its tables and fences', () => {
  const md = renderMarkdown(hostileReport());
  expectNoActiveHtml(md, md);
  expectPlainConsole(md, JSON.stringify(md));
  // Outside fenced blocks, no line starts a heading or a fence the target wrote.
  let fence: string | undefined;
  for (const line of md.split('\n')) {
    const opens = /^(`{3,})/.exec(line)?.[1];
    if (fence) {
      if (line === fence) fence = undefined;
      continue;
    }
    if (opens) {
      fence = opens;
      continue;
    }
    expect(line, line).not.toMatch(/^# Owned|<script|<img|<svg|<details/);
    // A failing requirement's row keeps its four cells whatever the message holds.
    if (/^\| [A-Z]+-\d+ \|/.test(line)) expect(line.split(/(?<!\\)\|/).length, line).toBe(6);
  }
  expect(fence).toBeUndefined();
});
