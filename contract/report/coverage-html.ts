/**
 * The coverage section of conformance.html (./coverage.ts; docs/generative.md, "Coverage"): the run's
 * totals, then one row per operation with the documented statuses and inputs it reached, those it never
 * reached, and statuses the target answered that the operation does not document.
 */
import type { CoverageReport, OperationCoverage } from './coverage.ts';
import { escapeHtml } from './escape-html.ts';

const pct = (a: number, b: number) => (b === 0 ? '—' : `${Math.round((100 * a) / b)}%`);
const list = (items: Array<string | number>, cls = '') => (items.length ? items.map((i) => `<code${cls ? ` class="${cls}"` : ''}>${escapeHtml(i)}</code>`).join(' ') : '<span class="zero">none</span>');

function row(o: OperationCoverage): string {
  return `<tr${o.requests ? '' : ' class="failing"'}><th><code>${escapeHtml(o.method)} ${escapeHtml(o.path)}</code> <span class="muted">${escapeHtml(o.operationId)}</span></th>`
    + `<td class="n">${o.statuses.observed.length}/${o.statuses.documented.length}</td><td>${list(o.statuses.observed)}</td><td>${list(o.statuses.missing)}${o.statuses.undocumented.length ? `<br>undocumented: ${list(o.statuses.undocumented, 'hot')}` : ''}</td>`
    + `<td class="n">${o.inputs.observed.length}/${o.inputs.documented.length}</td><td>${list(o.inputs.missing)}</td></tr>`;
}

/** The coverage section (an `<h2 id="coverage">` and its table). */
export function coverageHtml(c: CoverageReport): string {
  const t = c.totals;
  return `<h2 id="coverage">API coverage</h2>
<p class="muted">What this run sent to this target, per operation of the spec: ${t.operations.observed}/${t.operations.documented} operations reached, ${t.statuses.observed}/${t.statuses.documented} documented statuses observed (${pct(t.statuses.observed, t.statuses.documented)}), ${t.inputs.observed}/${t.inputs.documented} documented parameters and body members sent (${pct(t.inputs.observed, t.inputs.documented)}).</p>
<details class="coverage"><summary>Per operation</summary>
<table class="coverage"><tr><th>Operation</th><th>statuses</th><th>observed</th><th>never reached</th><th>inputs</th><th>inputs never sent</th></tr>
${c.operations.map(row).join('\n')}
</table></details>`;
}
