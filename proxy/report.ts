/** Writes `<dir>/proxy.json` and `<dir>/proxy.html`: the proxy's findings grouped by root cause. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FindingGroup, LedgerSummary } from './ledger.ts';

/** proxy.json: the run (upstream, start and end times) and the ledger's summary. */
export interface ProxyReport extends LedgerSummary {
  upstream: string;
  startedAt: string;
  endedAt: string;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function table(title: string, groups: FindingGroup[]): string {
  if (groups.length === 0) return `<h2>${title}</h2><p>None.</p>`;
  const rows = groups.map((g) => `<tr><td>${g.exchanges}</td><td>${escape(g.check)}</td><td>${escape(g.requirement)}</td><td>${escape(g.operation ?? '')}</td><td>${g.status}</td><td><code>${escape(g.location)}</code></td><td><code>${escape(`${g.example.method} ${g.example.target}`)}</code><br>${escape(g.example.message)}<br><small>request_id ${escape(g.example.requestId ?? '-')}</small></td></tr>`);
  return `<h2>${title}</h2><table><thead><tr><th>exchanges</th><th>check</th><th>requirement</th><th>operation</th><th>status</th><th>where</th><th>example</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The HTML page of a report. */
export function renderHtml(r: ProxyReport): string {
  const verdict = r.violations.length === 0 ? 'no violations' : `${r.violatingExchanges} violating exchanges, ${r.violations.length} root causes`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Validating proxy: ${escape(verdict)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top;text-align:left}code{word-break:break-all}</style></head><body>
<h1>Validating proxy — ${escape(verdict)}</h1>
<p>Upstream <code>${escape(r.upstream)}</code>, ${escape(r.startedAt)} – ${escape(r.endedAt)}: ${r.exchanges} exchanges judged, ${r.violatingExchanges} with violations, ${r.invalidRequests} invalid requests, ${r.relayed} connections relayed unjudged (unparsable or CONNECT).</p>
${table('Violations by root cause', r.violations)}
${table('Requests the spec rejects', r.requestFindings)}
</body></html>
`;
}

/**
 * Writes `text` to `file` atomically: into a new file beside it (created exclusively, so never through
 * a link planted there), then renamed over it — a link at `file` is replaced, its target untouched.
 */
export function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { flag: 'wx' });
    renameSync(temporary, file);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
}

/** Writes both files atomically (creating `dir`); returns their paths. */
export function writeReport(dir: string, r: ProxyReport): { json: string; html: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'proxy.json');
  const html = join(dir, 'proxy.html');
  writeAtomically(json, `${JSON.stringify(r, null, 2)}\n`);
  writeAtomically(html, renderHtml(r));
  return { json, html };
}
