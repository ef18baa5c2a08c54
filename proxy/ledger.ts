/**
 * What the proxy tells: findings grouped by root cause — check, operation, status and location (JSON
 * pointer, header or parameter) — each with the number of exchanges that showed it and one example.
 * Response findings are violations of the API by the upstream; request findings are requests the spec
 * rejects (the client's, reported apart; a success to one is a violation, `invalidRequestAccepted`).
 */
import type { Finding } from './judge.ts';

/** One root cause. */
export interface FindingGroup {
  side: Finding['side'];
  check: string;
  requirement: string;
  operation?: string;
  status: number;
  location: string;
  /** Exchanges that showed it. */
  exchanges: number;
  example: { method: string; target: string; requestId?: string; message: string };
}

/** The proxy's totals and groups (the body of proxy.json). */
export interface LedgerSummary {
  exchanges: number;
  violatingExchanges: number;
  invalidRequests: number;
  /** Connections relayed as raw bytes (unparsable requests, CONNECT): forwarded, not judged. */
  relayed: number;
  violations: FindingGroup[];
  requestFindings: FindingGroup[];
}

const keyOf = (f: Finding) => [f.side, f.check, f.requirement, f.operation ?? '', f.status, f.location].join('\u0000');

export class Ledger {
  private readonly groups = new Map<string, FindingGroup>();
  exchanges = 0;
  violatingExchanges = 0;
  invalidRequests = 0;
  relayed = 0;

  /** Records one exchange's findings; returns its violations (response side). */
  record(findings: Finding[]): Finding[] {
    this.exchanges++;
    const seen = new Set<string>();
    for (const f of findings) {
      const key = keyOf(f);
      if (seen.has(key)) continue;
      seen.add(key);
      const group = this.groups.get(key);
      if (group) group.exchanges++;
      else this.groups.set(key, { side: f.side, check: f.check, requirement: f.requirement, operation: f.operation, status: f.status, location: f.location, exchanges: 1, example: { method: f.method, target: f.target.slice(0, 500), requestId: f.requestId, message: f.message } });
    }
    const violations = findings.filter((f) => f.side === 'response');
    if (violations.length) this.violatingExchanges++;
    if (findings.some((f) => f.side === 'request')) this.invalidRequests++;
    return violations;
  }

  summary(): LedgerSummary {
    const sorted = [...this.groups.values()].sort((a, b) => b.exchanges - a.exchanges || a.check.localeCompare(b.check));
    return {
      exchanges: this.exchanges,
      violatingExchanges: this.violatingExchanges,
      invalidRequests: this.invalidRequests,
      relayed: this.relayed,
      violations: sorted.filter((g) => g.side === 'response'),
      requestFindings: sorted.filter((g) => g.side === 'request'),
    };
  }
}

/** The live line of a violating exchange: operation, status, request id, then each check → requirement. */
export function liveLine(violations: Finding[]): string {
  const f = violations[0]!;
  const checks = violations.map((v) => `[${v.check} → ${v.requirement}] ${v.message}`).join('; ');
  return `violation: ${f.method} ${f.target.slice(0, 200)} → ${f.operation ?? '(no operation)'} ${f.status} request_id=${f.requestId ?? '-'} ${checks}`;
}
