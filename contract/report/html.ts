/**
 * `reports/conformance.html` (docs/vendors.md, "Reading a report": conformance.html): one self-contained page — no network, no external assets —
 * that a person reads: the verdict, the target and versions, a family × verdict matrix, and every
 * requirement with its statement, level, verdict, tests and, for a failure, the failing check's message
 * and the exchanges that show it, with the `curl` command that reproduces the failing one; the run's API
 * coverage (./coverage-html.ts). Filters by verdict, family, level and text run in an inline script.
 */
import type { ConformanceReport, RequirementResult, Tally } from './model.ts';
import { highlightJson } from './json-highlight.ts';
import type { EvidenceRecord } from '../exchange.ts';
import { curlCommand } from './reproduce.ts';
import { coverageHtml } from './coverage-html.ts';
import { escapeHtml } from './escape-html.ts';
import { ROOT_CAUSES_STYLE, rootCausesHtml } from './root-causes-html.ts';

export { escapeHtml };

const VERDICT_CLASS: Record<string, string> = {
  conformant: 'pass', 'not conformant': 'fail', incomplete: 'warn',
  passed: 'pass', failed: 'fail', waived: 'waive', 'not assessed': 'warn', untestable: 'muted',
};

const STYLE = `
:root{--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--waive:#8250df;--muted:#57606a;--bg:#f6f8fa;--line:#d0d7de}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f2328;background:#fff}
header{padding:24px 32px;border-bottom:1px solid var(--line);background:var(--bg)}
h1{margin:0 0 8px;font-size:22px}h2{font-size:17px;margin:28px 0 10px}
main{padding:0 32px 48px;max-width:1400px}
.verdict{display:inline-block;padding:6px 14px;border-radius:6px;color:#fff;font-weight:700;font-size:20px;letter-spacing:.02em;text-transform:uppercase}
.verdict.pass{background:var(--pass)}.verdict.fail{background:var(--fail)}.verdict.warn{background:var(--warn)}
.meta{display:grid;grid-template-columns:max-content auto;gap:2px 16px;margin-top:14px;color:var(--muted)}
.meta b{color:#1f2328;font-weight:600}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
th{background:var(--bg);font-weight:600}td.n{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff}
.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}.badge.warn{background:var(--warn)}.badge.waive{background:var(--waive)}.badge.muted{background:var(--muted)}
.zero{color:#afb8c1}.hot{color:var(--fail);font-weight:700}
.filters{position:sticky;top:0;background:#fff;padding:10px 0;border-bottom:1px solid var(--line);display:flex;gap:12px;flex-wrap:wrap;align-items:center;z-index:2}
.filters select,.filters input{font:inherit;padding:4px 6px}
details.req{border:1px solid var(--line);border-radius:6px;margin:6px 0;background:#fff;scroll-margin-top:64px}
#requirements{scroll-margin-top:8px}
.failing-list{padding-left:1.2em}.failing-list li{margin:3px 0}
details.req>summary{cursor:pointer;padding:7px 10px;display:flex;gap:10px;align-items:baseline;list-style:none}
details.req>summary::-webkit-details-marker{display:none}
details.req[open]>summary{border-bottom:1px solid var(--line);background:var(--bg)}
.id{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-weight:600;min-width:92px}
.lvl{color:var(--muted);font-size:12px;min-width:60px}.stmt{flex:1}
.body{padding:8px 14px 12px}.body p{margin:4px 0}
pre{background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:8px;overflow:auto;max-height:340px;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap;word-break:break-word}
.failure{border-left:3px solid var(--fail);padding-left:10px;margin:10px 0}.failure.waived{border-color:var(--waive)}
.exchange{display:grid;grid-template-columns:1fr 1fr;gap:8px}.exchange h4{margin:6px 0 2px;font-size:12px;color:var(--muted)}
.tests li{margin:2px 0}.muted{color:var(--muted)}
.bar{display:flex;width:160px;height:10px;border-radius:3px;overflow:hidden;background:#eaeef2}.bar span{display:block;height:100%}
.bar .pass{background:var(--pass)}.bar .fail{background:var(--fail)}.bar .waive{background:var(--waive)}.bar .warn{background:#d4a72c}
table.families td,table.families th{padding:3px 8px}tr.failing>th{box-shadow:inset 3px 0 var(--fail)}
details.earlier>summary{cursor:pointer;color:var(--muted);margin:6px 0}
mark{background:#ffebe9;outline:1px solid var(--fail);color:inherit}
blockquote{margin:4px 0 4px 8px;padding:2px 8px;border-left:3px solid var(--line);background:var(--bg)}.said{font-size:13px;color:#444}
`;

const SCRIPT = `
(function(){
  var f=document.querySelectorAll('[data-filter]');
  function apply(){
    var v={};f.forEach(function(e){v[e.dataset.filter]=e.value.toLowerCase();});
    var shown=0;
    document.querySelectorAll('details.req').forEach(function(r){
      var ok=(!v.verdict||r.dataset.verdict===v.verdict)&&(!v.family||r.dataset.family===v.family)&&(!v.level||r.dataset.level===v.level)&&(!v.text||r.textContent.toLowerCase().indexOf(v.text)>=0);
      r.style.display=ok?'':'none';if(ok)shown++;
    });
    document.getElementById('shown').textContent=shown;
  }
  f.forEach(function(e){e.addEventListener('input',apply);e.addEventListener('change',apply);});
  // #family=exp&verdict=failed (the family links, a shared URL) filters the list and shows it;
  // #req-EXP-003 (the failing list) is a plain anchor to that requirement.
  function fromHash(scroll){
    if(location.hash.indexOf('=')<0)return;
    var q=new URLSearchParams(location.hash.slice(1));
    f.forEach(function(e){e.value=q.get(e.dataset.filter)||'';});
    apply();
    if(scroll)document.getElementById('requirements').scrollIntoView();
  }
  window.addEventListener('hashchange',function(){fromHash(true);});
  fromHash(false);
  apply();
})();
`;

function n(value: number, hot = false): string {
  return `<td class="n ${value === 0 ? 'zero' : hot ? 'hot' : ''}">${value}</td>`;
}

/** A stacked bar of a family's must verdicts: passed, failed, waived, not assessed. */
function bar(t: Tally): string {
  const testable = t.total - t.untestable;
  if (testable === 0) return '<div class="bar"></div>';
  const seg = (count: number, cls: string) => (count ? `<span class="${cls}" style="width:${(100 * count) / testable}%"></span>` : '');
  return `<div class="bar" title="${t.passed} passed, ${t.failed} failed, ${t.waived} waived, ${t.notAssessed} not assessed of ${testable} testable">${seg(t.passed, 'pass')}${seg(t.failed, 'fail')}${seg(t.waived, 'waive')}${seg(t.notAssessed, 'warn')}</div>`;
}

/** A body as recorded, pretty-printed when it is (untruncated) JSON. */
function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One exchange; `at` marks the offending body field (JSON pointer) or header (name). */
function exchangeHtml(x: EvidenceRecord['exchanges'][number], at?: string): string {
  const headers = (h: Record<string, string>) => Object.entries(h).map(([k, v]) => (at !== undefined && at.split(', ').includes(k) ? `<mark>${escapeHtml(`${k}: ${v}`)}</mark>` : escapeHtml(`${k}: ${v}`))).join('\n');
  const missingHeaders = at !== undefined && !at.startsWith('/') ? at.split(', ').filter((h) => x.responseHeaders[h] === undefined) : [];
  const bodyPointer = at?.startsWith('/') ? at : undefined;
  const retries = x.retries.length ? `\n(retried after ${x.retries.map((r) => `${r.status || 'pacing'} ${r.waitedSeconds}s`).join(', ')})` : '';
  return `<div class="exchange">
<div><h4>Request</h4><pre>${escapeHtml(`${x.method} ${x.url}\n`)}${headers(x.requestHeaders)}${x.requestBody ? escapeHtml(`\n\n${prettyBody(x.requestBody)}`) : ''}</pre></div>
<div><h4>Response ${x.status} (${x.durationMs} ms)${bodyPointer ? ` — <mark>${escapeHtml(bodyPointer)}</mark> marked` : ''}</h4><pre>${x.status}\n${headers(x.responseHeaders)}${missingHeaders.length ? `\n<mark>(no ${escapeHtml(missingHeaders.join(', '))})</mark>` : ''}\n\n${highlightJson(x.responseBody, bodyPointer)}${escapeHtml(retries)}</pre></div>
</div>`;
}

/** The sentence(s) of the description a must rests on, each with its section; else the source section. */
function quoteHtml(r: RequirementResult): string {
  if (!r.quote?.length) return `<p class="muted">Source: ${escapeHtml(r.source)}</p>`;
  return `<div class="quote"><p class="muted">It rests on docs/api-v1.md:</p>${r.quote.map((q) => `<blockquote>${escapeHtml(q.text)} <span class="muted">— ${escapeHtml(q.section)}</span></blockquote>`).join('')}</div>`;
}

function requirementHtml(r: RequirementResult): string {
  const cls = VERDICT_CLASS[r.verdict]!;
  const failures = r.failures.map((f) => `<div class="failure${r.verdict === 'waived' ? ' waived' : ''}">
<p><a class="rc" href="#${escapeHtml(f.rootCause)}">${escapeHtml(f.rootCause)}</a> <b>${escapeHtml(f.test)}</b>${f.check ? ` — check <code>${escapeHtml(f.check)}</code>` : ''}</p>
<pre>${escapeHtml(f.message)}</pre>
${f.evidence.length ? `<p class="muted">The exchange the failing ${f.check ? 'check' : 'assertion'} looked at:</p>${exchangeHtml(f.evidence[f.evidence.length - 1]!, f.at)}
<p class="muted">Reproduce it (keys are variables named after their profile role):</p><pre class="curl">${escapeHtml(curlCommand(f.evidence[f.evidence.length - 1]!))}</pre>` : ''}
${f.evidence.length > 1 ? `<details class="earlier"><summary>${f.evidence.length - 1} earlier exchange${f.evidence.length > 2 ? 's' : ''} of the test (what arranged it)</summary>${f.evidence.slice(0, -1).reverse().map((x) => exchangeHtml(x)).join('\n')}</details>` : ''}
</div>`).join('\n');
  const tests = r.tests.length
    ? `<ul class="tests">${r.tests.map((t) => `<li><span class="badge ${VERDICT_CLASS[t.status === 'passed' ? 'passed' : t.status === 'skipped' ? 'not assessed' : 'failed']}">${escapeHtml(t.status)}</span> ${escapeHtml(t.title)} <span class="muted">${escapeHtml(t.file)}:${t.line}</span></li>`).join('')}</ul>`
    : '<p class="muted">No test of this run proves it.</p>';
  return `<details class="req" id="req-${escapeHtml(r.id)}" data-verdict="${escapeHtml(r.verdict)}" data-family="${escapeHtml(r.family.toLowerCase())}" data-level="${r.level}"${r.verdict === 'failed' ? ' open' : ''}>
<summary><span class="id">${escapeHtml(r.id)}</span><span class="lvl">${r.level}</span><span class="badge ${cls}">${escapeHtml(r.verdict)}</span><span class="stmt">${escapeHtml(r.statement)}</span></summary>
<div class="body">
${quoteHtml(r)}
${r.reason ? `<p><b>${r.verdict === 'waived' ? 'Waiver' : 'Reason'}:</b> ${escapeHtml(r.reason)}</p>` : ''}
${failures}
<p><b>Tests</b></p>${tests}
</div>
</details>`;
}

/** Renders the whole report as one HTML document. */
export function renderHtml(report: ConformanceReport): string {
  const cls = VERDICT_CLASS[report.verdict]!;
  const s = report.summary;
  const duration = `${(report.run.durationMs / 1000).toFixed(1)} s`;
  const familyRows = report.families
    .map((f) => `<tr class="${f.must.failed ? 'failing' : ''}"><th><a href="#family=${f.id.toLowerCase()}" title="Show the ${escapeHtml(f.id)} requirements">${escapeHtml(f.id)}</a> <span class="muted">${escapeHtml(f.title)}</span></th><td>${bar(f.must)}</td>${n(f.must.passed)}${n(f.must.failed, true)}${n(f.must.waived)}${n(f.must.notAssessed)}${n(f.must.untestable)}${n(f.inferred.passed)}${n(f.inferred.failed, true)}${n(f.inferred.notAssessed)}</tr>`)
    .join('\n');
  const familyOptions = report.families.map((f) => `<option value="${f.id.toLowerCase()}">${escapeHtml(f.id)} — ${escapeHtml(f.title)}</option>`).join('');
  const failedMust = report.requirements.filter((r) => r.level === 'must' && r.verdict === 'failed');
  const ordered = [...report.requirements].sort((a, b) => Number(b.verdict === 'failed') - Number(a.verdict === 'failed'));
  const waivers = report.waivers.length
    ? `<h2>Waivers</h2><table><tr><th>Requirement</th><th>Status</th><th>Expires</th><th>Reason</th></tr>${report.waivers.map((w) => `<tr><td>${escapeHtml(w.requirement)}</td><td>${escapeHtml(w.status)}</td><td>${escapeHtml(w.expires)}</td><td>${escapeHtml(w.reason)}</td></tr>`).join('')}</table>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Conformance: ${escapeHtml(report.verdict)} — ${escapeHtml(report.target.name)}</title>
<style>${STYLE}${ROOT_CAUSES_STYLE}</style></head>
<body>
<header>
<h1>${escapeHtml(report.spec.title)} — conformance report</h1>
<span class="verdict ${cls}" id="verdict">${escapeHtml(report.verdict)}</span>
<div class="meta">
<span>Target</span><b>${escapeHtml(report.target.name)} — ${escapeHtml(report.target.baseUrl)}${report.target.embedded ? ' (embedded mock)' : ''}</b>
<span>Specification</span><b>OpenAPI document ${escapeHtml(report.spec.version)}; requirement catalog ${escapeHtml(report.catalog.version)} (${report.catalog.requirements} requirements)</b>
<span>Run</span><b>${escapeHtml(report.run.startedAt)}, ${duration}${report.run.shard ? `, shard ${report.run.shard.current}/${report.run.shard.total}` : ''}</b>
<span>Seed</span><b>${report.run.seed ?? 'not recorded'}${report.run.exploreSeeds ? ` (and ${report.run.exploreSeeds} explored per property)` : ''}</b>
<span>Tests</span><b>${report.run.tests.total} (${report.run.tests.passed} passed, ${report.run.tests.failed} failed, ${report.run.tests.skipped} skipped); ${report.run.requests} requests</b>
<span>Must</span><b>${s.must.passed} passed, ${s.must.failed} failed, ${s.must.waived} waived, ${s.must.notAssessed} not assessed, ${s.must.untestable} untestable</b>
<span>Inferred</span><b>${s.inferred.passed} passed, ${s.inferred.failed} failed, ${s.inferred.notAssessed} not assessed — never decide the verdict</b>
<span>Tool</span><b>${escapeHtml(report.tool.name)} ${escapeHtml(report.tool.version)}</b>
</div>
</header>
<main>
${rootCausesHtml(report)}
${failedMust.length ? `<h2>Failing must requirements (${failedMust.length})</h2><ul class="failing-list">${failedMust.map((r) => `<li><a href="#req-${escapeHtml(r.id)}">${escapeHtml(r.id)}</a> ${escapeHtml(r.statement)} — root cause ${r.rootCauses.map((id) => `<a href="#${escapeHtml(id)}">${escapeHtml(id)}</a>`).join(', ')}${r.quote?.length ? `<br><span class="said">The description: ${r.quote.map((q) => `“${escapeHtml(q.text)}”`).join(' ')}</span>` : ''}</li>`).join('')}</ul>` : ''}
<h2>Families</h2>
<p class="muted">Verdicts per requirement. <b>must</b> requirements are stated by the description and decide the verdict; <b>inferred</b> ones record what the description leaves unshown and never do.</p>
<table class="families"><tr><th rowspan="2">Family</th><th colspan="6">must</th><th colspan="3">inferred</th></tr>
<tr><th></th><th>passed</th><th>failed</th><th>waived</th><th>not assessed</th><th>untestable</th><th>passed</th><th>failed</th><th>not assessed</th></tr>
${familyRows}
</table>
${waivers}
${report.coverage ? coverageHtml(report.coverage) : ''}
<h2 id="requirements">Requirements</h2>
<div class="filters">
<label>Verdict <select data-filter="verdict"><option value="">all</option><option>failed</option><option>waived</option><option>not assessed</option><option>passed</option><option>untestable</option></select></label>
<label>Family <select data-filter="family"><option value="">all</option>${familyOptions}</select></label>
<label>Level <select data-filter="level"><option value="">all</option><option>must</option><option>inferred</option></select></label>
<label>Text <input data-filter="text" placeholder="id or words"></label>
<span class="muted"><span id="shown">${report.requirements.length}</span> shown</span>
</div>
${ordered.map(requirementHtml).join('\n')}
</main>
<script>${SCRIPT}</script>
</body></html>
`;
}
