/**
 * The client report (docs/integrators.md, "A verdict on your client"): each CLIENT requirement of the
 * catalog with its verdict over a client's traffic — failed (a finding), passed (exercised, no finding),
 * not exercised (the traffic gave the rule no chance), or risk (CLIENT-007, never a failure) — with the
 * evidence exchanges of every finding; rendered as console text, JSON, HTML and JUnit XML.
 */
import junit from 'junit-report-builder';
import { loadCatalog } from '../catalog.ts';
import { CLIENT_RULES, type ClientFinding } from './rules.ts';
import type { ClientExchange } from './traffic.ts';

export type ClientVerdict = 'passed' | 'failed' | 'not exercised' | 'risk';

export interface ClientRequirementResult {
  id: string;
  level: 'must' | 'inferred';
  source: string;
  statement: string;
  verdict: ClientVerdict;
  exercised: number;
  findings: Array<ClientFinding & { exchanges: EvidenceExchange[] }>;
}

/** An exchange as evidence: what was sent and answered (bodies cut at 2,000 characters; keys masked). */
export interface EvidenceExchange {
  seq: number;
  time: string;
  method: string;
  target: string;
  status: number;
  client: string;
  organization?: string;
  requestId?: string;
  requestBody?: string;
  responseBody?: string;
}

export interface ClientReport {
  reportVersion: '1.0';
  kind: 'client-report';
  source: { kind: 'journal' | 'har'; from: string };
  generatedAt: string;
  exchanges: number;
  /** `clean` when no rule failed (risks allowed), `not clean` otherwise. */
  verdict: 'clean' | 'not clean';
  summary: { passed: number; failed: number; notExercised: number; risks: number };
  requirements: ClientRequirementResult[];
}

const cut = (s: string | undefined) => (s === undefined ? undefined : s.length > 2000 ? `${s.slice(0, 2000)}… (cut)` : s);

function evidence(x: ClientExchange): EvidenceExchange {
  return {
    seq: x.seq, time: new Date(x.sentAt).toISOString(), method: x.method, target: `${x.path}${x.query ? `?${x.query}` : ''}`, status: x.status, client: x.client,
    ...(x.organization && { organization: x.organization }), ...(x.requestId && { requestId: x.requestId }),
    ...(x.requestBody !== undefined && { requestBody: cut(x.requestBody) }), ...(x.responseBody !== undefined && { responseBody: cut(x.responseBody) }),
  };
}

/** Judges `exchanges` (in the order sent) by every CLIENT rule. */
export function buildClientReport(exchanges: readonly ClientExchange[], source: ClientReport['source'], now = new Date()): ClientReport {
  const catalog = loadCatalog();
  const bySeq = new Map(exchanges.map((x) => [x.seq, x]));
  const requirements = CLIENT_RULES.map((rule) => {
    const outcome = rule(exchanges);
    const req = catalog.byId.get(outcome.requirement);
    if (!req) throw new Error(`the catalog has no ${outcome.requirement}`);
    const failed = outcome.findings.some((f) => f.severity === 'failure');
    const verdict: ClientVerdict = failed ? 'failed' : outcome.findings.length ? 'risk' : outcome.exercised > 0 ? 'passed' : 'not exercised';
    return {
      id: req.id, level: req.level, source: req.source, statement: req.statement, verdict, exercised: outcome.exercised,
      findings: outcome.findings.map((f) => ({ ...f, exchanges: f.evidence.map((seq) => bySeq.get(seq)).filter((x): x is ClientExchange => x !== undefined).map(evidence) })),
    };
  });
  const count = (v: ClientVerdict) => requirements.filter((r) => r.verdict === v).length;
  const summary = { passed: count('passed'), failed: count('failed'), notExercised: count('not exercised'), risks: count('risk') };
  return { reportVersion: '1.0', kind: 'client-report', source, generatedAt: now.toISOString(), exchanges: exchanges.length, verdict: summary.failed ? 'not clean' : 'clean', summary, requirements };
}

/** The console summary: one line per requirement, then each finding with its evidence. */
export function renderClientText(report: ClientReport): string {
  const lines = [`Client report: ${report.verdict} — ${report.exchanges} exchanges from ${report.source.kind} ${report.source.from}`,
    `  ${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.notExercised} not exercised, ${report.summary.risks} with portability risks`, ''];
  for (const r of report.requirements) {
    lines.push(`  ${r.verdict.padEnd(13)} ${r.id}  ${r.statement.split(' ("')[0]}`);
    for (const f of r.findings.slice(0, 10)) lines.push(`      ${f.severity === 'risk' ? 'risk' : 'FAIL'}: ${f.message} [evidence #${f.evidence.join(', #')}]`);
    if (r.findings.length > 10) lines.push(`      … ${r.findings.length - 10} more in the JSON report`);
  }
  return `${lines.join('\n')}\n`;
}

/** The JUnit XML: one test case per requirement; a failed one fails, not exercised and risks are skipped with the reason. */
export function renderClientJunit(report: ClientReport): string {
  const builder = junit.newBuilder();
  const suite = builder.testSuite().name('CLIENT Client-side rules');
  for (const r of report.requirements) {
    const tc = suite.testCase().className('client-report.CLIENT').name(`${r.id} [${r.level}] ${r.statement}`);
    const text = r.findings.map((f) => `${f.message}\n  evidence: ${f.exchanges.map((x) => `#${x.seq} ${x.method} ${x.target} → ${x.status}`).join('; ')}`).join('\n\n');
    if (r.verdict === 'failed') tc.failure(r.findings[0]!.message.slice(0, 500)).stacktrace(text);
    else if (r.verdict === 'risk') tc.skipped().standardOutput(`portability risk (not a failure):\n${text}`);
    else if (r.verdict === 'not exercised') tc.skipped().standardOutput('not exercised: the traffic gave this rule no chance to apply');
  }
  return builder.build();
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A self-contained HTML page (no script, no outside resource). */
export function renderClientHtml(report: ClientReport): string {
  const colour: Record<ClientVerdict, string> = { passed: '#1e7d34', failed: '#b3261e', 'not exercised': '#6b7280', risk: '#a15c00' };
  const rows = report.requirements.map((r) => {
    const findings = r.findings.map((f) => `<li><p>${esc(f.message)}</p>${f.exchanges.map((x) => `<details><summary>#${x.seq} ${esc(x.method)} ${esc(x.target)} → ${x.status} <small>${esc(x.time)} ${esc(x.client)}${x.organization ? ` ${esc(x.organization)}` : ''}</small></summary>${x.requestBody !== undefined ? `<pre>${esc(x.requestBody)}</pre>` : ''}${x.responseBody !== undefined ? `<pre>${esc(x.responseBody)}</pre>` : ''}</details>`).join('')}</li>`).join('');
    return `<section class="req" data-verdict="${r.verdict}"><h2><span style="color:${colour[r.verdict]}">${r.verdict}</span> ${r.id} <small>[${r.level}] ${esc(r.source)} · exercised ${r.exercised}×</small></h2><p>${esc(r.statement)}</p>${findings ? `<ol>${findings}</ol>` : ''}</section>`;
  }).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Client report: ${report.verdict}</title><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:14px/1.45 system-ui,sans-serif;max-width:70rem;margin:1rem auto;padding:0 1rem;color:#1d2330}pre{background:#f0f2f5;padding:.5rem;white-space:pre-wrap;word-break:break-all}h2{font-size:1.05rem}section{border-top:1px solid #e3e6eb}</style></head>
<body><h1>Client report: <span id="verdict">${report.verdict}</span></h1><p>${report.exchanges} exchanges from ${report.source.kind} ${esc(report.source.from)}, judged ${esc(report.generatedAt)}: ${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.notExercised} not exercised, ${report.summary.risks} with portability risks.</p>
${rows}</body></html>\n`;
}
