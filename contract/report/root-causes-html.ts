/**
 * The root causes and the failed `must` list of the HTML report (docs/vendors.md, "Reading a report"),
 * the first thing a reader sees under the verdict: each `must` root cause on one line — its level, the
 * violated rule and where it was seen, the requirements it failed — with where else it was seen and the
 * commands that reproduce it one click away; `inferred` root causes folded below, since they never
 * decide the verdict.
 */
import type { ConformanceReport, RootCause } from './model.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (text: unknown) => String(text ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** The style of this part of the page; the `inferred` badge is dark text on white (contrast above 7:1). */
export const ROOT_CAUSES_STYLE = `
ol.causes{padding-left:1.6em;margin:4px 0}ol.causes>li{margin:4px 0}ol.causes code{background:var(--bg);padding:0 3px;border-radius:3px}.rc{font-size:12px}
.badge.inferred{background:#fff;color:#24292f;border:1px solid #57606a;padding:0 7px}
details.more{display:inline}details.more>summary{display:inline;cursor:pointer;color:#0550ae;font-size:12px;margin-left:6px}
details.more[open]{display:block;margin:4px 0 8px}details.more pre{margin:4px 0}
details.inferred-causes{margin:6px 0}details.inferred-causes>summary{cursor:pointer;color:#24292f}
`;

const placeText = (p: NonNullable<RootCause['where']>[number]) =>
  `<code>${esc(p.operationId ?? 'outside the API')}</code> ${p.status ?? ''}${p.at ? ` <code>${esc(p.at)}</code>` : ''} <span class="muted">(${p.exchanges})</span>`;

/** One root cause: the summary line, then (one click away) where it was seen and how to reproduce it. */
function causeHtml(c: RootCause): string {
  const summary = esc(c.summary).replace(/`([^`]+)`/g, '<code>$1</code>');
  const where = c.where?.length ? `<p>Seen at ${c.where.map(placeText).join(', ')}${c.where.length === 12 ? ', …' : ''}.</p>` : '';
  const reproduce = c.reproduce
    ? `<p class="muted">Rerun the test that showed it first:</p><pre class="repro">${esc(c.reproduce.command)}</pre>${c.reproduce.curl ? `<p class="muted">Or send its evidence request (keys are variables named after their profile role):</p><pre class="curl">${esc(c.reproduce.curl)}</pre>` : ''}`
    : '';
  const more = where || reproduce ? `<details class="more"><summary>where, reproduce</summary>${where}${reproduce}</details>` : '';
  return `<li id="${esc(c.id)}"><span class="badge ${c.level === 'must' ? 'fail' : 'inferred'}">${c.level}</span> ${summary} — fails ${c.requirements.map((id) => `<a href="#req-${esc(id)}">${esc(id)}</a>`).join(', ')}${c.kind === 'check' ? ` <span class="muted">(${c.tests} test${c.tests === 1 ? '' : 's'})</span>` : ''}${more}</li>`;
}

/** The root causes: `must` ones listed, `inferred` ones folded (html.ts lists the failed `must` requirements after them). */
export function rootCausesHtml(report: ConformanceReport): string {
  const must = report.rootCauses.filter((c) => c.level === 'must');
  const inferred = report.rootCauses.filter((c) => c.level !== 'must');
  const parts: string[] = [];
  if (report.rootCauses.length) {
    parts.push(`<h2 id="root-causes">${must.length} root cause${must.length === 1 ? '' : 's'} of failed must requirements${inferred.length ? `, ${inferred.length} inferred` : ''}</h2>`);
    if (must.length) parts.push(`<ol class="causes">${must.map(causeHtml).join('')}</ol>`);
    if (inferred.length) parts.push(`<details class="inferred-causes"><summary>${inferred.length} inferred root cause${inferred.length === 1 ? '' : 's'} — what the description leaves unshown; never decide the verdict</summary><ol class="causes" start="${must.length + 1}">${inferred.map(causeHtml).join('')}</ol></details>`);
  }
  return parts.join('\n');
}
