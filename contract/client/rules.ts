/**
 * The description's rules for clients (docs/api-v1.md; catalog family CLIENT, spec/requirements.yaml),
 * each one named function over a client's exchanges (traffic.ts) returning its findings and how often
 * the traffic gave it a chance to apply. A finding names the exchanges that show it (`evidence`, by
 * `seq`). Only what the description states is a failure; routes it does not show are a risk.
 */
import { loadOperations } from '../openapi.ts';
import { Router } from '../router.ts';
import type { ClientExchange } from './traffic.ts';

export interface ClientFinding {
  requirement: string;
  /** `failure` breaks a stated rule; `risk` is a portability warning (CLIENT-007). */
  severity: 'failure' | 'risk';
  message: string;
  /** `seq` of the exchanges that show it, in order. */
  evidence: number[];
}

/** A rule's outcome: its findings and the number of times the traffic exercised it. */
export interface RuleOutcome {
  requirement: string;
  exercised: number;
  findings: ClientFinding[];
}

export type ClientRule = (exchanges: readonly ClientExchange[]) => RuleOutcome;

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A JSON object body, or undefined (none, cut by the journal's limit, or not JSON). */
function jsonBody(x: ClientExchange): Record<string, unknown> | undefined {
  if (x.requestBody === undefined) return undefined;
  try {
    const v = JSON.parse(x.requestBody) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A value as JSON with sorted keys: equal commands give equal text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

/** A command with an idempotency key: its key and its text with and without the key. */
function command(x: ClientExchange): { key: string; whole: string; rest: string } | undefined {
  if (!WRITE.has(x.method)) return undefined;
  const body = jsonBody(x);
  if (typeof body?.idempotencyKey !== 'string') return undefined;
  const { idempotencyKey, ...rest } = body;
  return { key: idempotencyKey as string, whole: `${x.method} ${x.path} ${canonical(body)}`, rest: `${x.method} ${x.path} ${canonical(rest)}` };
}

/** An answer that leaves the command's outcome unknown: none, 408, or a 5xx. */
const uncertain = (x: ClientExchange) => x.status === 0 || x.status === 408 || x.status >= 500;

/** CLIENT-001: one idempotency key, one command. */
export const freshIdempotencyKeys: ClientRule = (exchanges) => {
  const first = new Map<string, { x: ClientExchange; whole: string }>();
  const findings: ClientFinding[] = [];
  let exercised = 0;
  for (const x of exchanges) {
    const c = command(x);
    if (!c) continue;
    exercised++;
    const id = `${x.client}\u0000${c.key}`;
    const seen = first.get(id);
    if (!seen) first.set(id, { x, whole: c.whole });
    else if (seen.whole !== c.whole) {
      findings.push({ requirement: 'CLIENT-001', severity: 'failure', evidence: [seen.x.seq, x.seq], message: `idempotencyKey ${c.key} was sent with two different commands: #${seen.x.seq} ${seen.x.method} ${seen.x.path} and #${x.seq} ${x.method} ${x.path} (a new command needs a new key)` });
    }
  }
  return { requirement: 'CLIENT-001', exercised, findings };
};

/** CLIENT-002: the retry of an uncertain command is the identical command with the same key. */
export const identicalRetries: ClientRule = (exchanges) => {
  const findings: ClientFinding[] = [];
  let exercised = 0;
  exchanges.forEach((x, i) => {
    const c = command(x);
    if (!c || !uncertain(x)) return;
    const next = exchanges.slice(i + 1).find((y) => y.client === x.client && y.method === x.method && y.path === x.path && command(y));
    if (!next) return;
    const n = command(next)!;
    if (n.rest !== c.rest) return; // another command, not a retry
    exercised++;
    if (n.key !== c.key) {
      findings.push({ requirement: 'CLIENT-002', severity: 'failure', evidence: [x.seq, next.seq], message: `#${x.seq} ${x.method} ${x.path} got an uncertain answer (${x.status || 'none'}) and #${next.seq} retried the same command with a new idempotencyKey (${n.key} instead of ${c.key}): the service may apply it twice` });
    }
  });
  return { requirement: 'CLIENT-002', exercised, findings };
};

/** CLIENT-003: after a 429, the key waits `Retry-After` seconds. */
export const waitsRetryAfter: ClientRule = (exchanges) => {
  const findings: ClientFinding[] = [];
  let exercised = 0;
  exchanges.forEach((x, i) => {
    if (x.status !== 429 || x.retryAfter === undefined || x.client === '') return;
    exercised++;
    const until = x.answeredAt + x.retryAfter * 1000;
    const early = exchanges.slice(i + 1).find((y) => y.client === x.client && y.sentAt >= x.answeredAt && y.sentAt < until);
    if (early) {
      findings.push({ requirement: 'CLIENT-003', severity: 'failure', evidence: [x.seq, early.seq], message: `#${x.seq} answered 429 with Retry-After: ${x.retryAfter}, and #${early.seq} (${early.method} ${early.path}) used the same key ${((early.sentAt - x.answeredAt) / 1000).toFixed(1)} s later` });
    }
  });
  return { requirement: 'CLIENT-003', exercised, findings };
};

/** The binding of a list request: endpoint, filters, page size, direction (organization apart). */
function binding(x: ClientExchange): { endpoint: string; filters: string; limit?: string; direction?: string; cursor?: string } {
  const q = new URLSearchParams(x.query);
  const filters = [...q].filter(([k]) => k !== 'cursor' && k !== 'limit' && k !== 'direction').sort(([a, av], [b, bv]) => a.localeCompare(b) || av.localeCompare(bv));
  return { endpoint: `${x.method} ${x.path}`, filters: new URLSearchParams(filters).toString(), limit: q.get('limit') ?? undefined, direction: q.get('direction') ?? undefined, cursor: q.get('cursor') ?? undefined };
}

/** What changed between the request that got a cursor (`origin`) and the one sending it back (`x`). */
function bindingChanges(origin: ClientExchange, x: ClientExchange): string[] {
  const o = binding(origin);
  const b = binding(x);
  return [
    o.endpoint !== b.endpoint && `endpoint ${o.endpoint} → ${b.endpoint}`,
    o.filters !== b.filters && `filters "${o.filters}" → "${b.filters}"`,
    o.limit !== undefined && b.limit !== undefined && o.limit !== b.limit && `page size ${o.limit} → ${b.limit}`,
    (o.direction ?? 'asc') !== (b.direction ?? 'asc') && `direction ${o.direction ?? '(none)'} → ${b.direction ?? '(none)'}`,
    origin.organization !== undefined && x.organization !== undefined && origin.organization !== x.organization && `organization ${origin.organization} → ${x.organization}`,
  ].filter((c): c is string => typeof c === 'string');
}

/** The exchange whose answer first issued each cursor (successful list pages). */
function issuers(exchanges: readonly ClientExchange[]): (cursor: string, before: ClientExchange) => ClientExchange | undefined {
  const issuedBy = new Map<string, ClientExchange>();
  for (const x of exchanges) if (x.cursor && x.status === 200 && !issuedBy.has(x.cursor)) issuedBy.set(x.cursor, x);
  return (cursor, before) => {
    const origin = issuedBy.get(cursor);
    return origin && origin.seq < before.seq ? origin : undefined;
  };
}

/** CLIENT-004: a cursor goes back with the endpoint, filters, page size, direction and organization that issued it. */
export const boundCursors: ClientRule = (exchanges) => {
  const issuerOf = issuers(exchanges);
  const findings: ClientFinding[] = [];
  let exercised = 0;
  for (const x of exchanges) {
    const cursor = binding(x).cursor;
    const origin = cursor === undefined ? undefined : issuerOf(cursor, x);
    if (!origin) continue;
    exercised++;
    const changed = bindingChanges(origin, x);
    if (changed.length) findings.push({ requirement: 'CLIENT-004', severity: 'failure', evidence: [origin.seq, x.seq], message: `#${x.seq} sent the cursor #${origin.seq} issued, with another ${changed.join(', ')}: restart without a cursor instead` });
  }
  return { requirement: 'CLIENT-004', exercised, findings };
};

/**
 * CLIENT-005: a cursor the service refused (expired or garbled) is not sent again. A refusal of a
 * cursor sent with another binding is CLIENT-004's: the cursor itself may still be good.
 */
export const noRefusedCursors: ClientRule = (exchanges) => {
  const issuerOf = issuers(exchanges);
  const refused = new Map<string, ClientExchange>();
  const findings: ClientFinding[] = [];
  let exercised = 0;
  for (const x of exchanges) {
    const cursor = binding(x).cursor;
    if (cursor === undefined) continue;
    const before = refused.get(`${x.client}\u0000${cursor}`);
    if (before) {
      exercised++;
      findings.push({ requirement: 'CLIENT-005', severity: 'failure', evidence: [before.seq, x.seq], message: `#${x.seq} sent again the cursor the service refused at #${before.seq} (${before.status}): restart the list without a cursor` });
      continue;
    }
    const origin = issuerOf(cursor, x);
    if (x.status === 400 && /cursor/i.test(x.responseBody ?? '') && !(origin && bindingChanges(origin, x).length)) {
      exercised++;
      refused.set(`${x.client}\u0000${cursor}`, x);
    }
  }
  return { requirement: 'CLIENT-005', exercised, findings };
};

/** The record a command acts on: the first two segments below the base (`/work-orders/wo_1`). */
export function recordOf(path: string): string {
  return path.split('/').slice(0, 3).join('/');
}

/** CLIENT-006: after a 409, a read of the record comes before the next command on it. */
export const refetchAfterConflict: ClientRule = (exchanges) => {
  const findings: ClientFinding[] = [];
  let exercised = 0;
  exchanges.forEach((x, i) => {
    if (x.status !== 409 || !WRITE.has(x.method)) return;
    const record = recordOf(x.path);
    const rest = exchanges.slice(i + 1).filter((y) => y.client === x.client);
    const next = rest.findIndex((y) => WRITE.has(y.method) && recordOf(y.path) === record);
    if (next === -1) return;
    exercised++;
    const read = rest.slice(0, next).some((y) => y.method === 'GET' && (y.path === record || y.path.startsWith(`${record}/`)));
    if (!read) findings.push({ requirement: 'CLIENT-006', severity: 'failure', evidence: [x.seq, rest[next]!.seq], message: `#${x.seq} ${x.method} ${x.path} answered 409, and #${rest[next]!.seq} ${rest[next]!.method} ${rest[next]!.path} followed without reading ${record} again` });
  });
  return { requirement: 'CLIENT-006', exercised, findings };
};

let router: Router | undefined;

/** CLIENT-007: routes the description does not show (an inferred operation, or none) are a risk. */
export const documentedRoutes: ClientRule = (exchanges) => {
  router ??= new Router(loadOperations());
  const findings: ClientFinding[] = [];
  const seen = new Map<string, ClientFinding>();
  for (const x of exchanges) {
    const routed = router.match(x.method, x.path);
    const why = routed.kind === 'not_found' ? 'no route of the description'
      : routed.kind === 'method_not_allowed' ? `a method the description does not give this path (it has ${routed.allow.join(', ')})`
      : routed.match.operation.inferred ? `operation ${routed.match.operation.operationId}, whose route or body the description does not show`
      : undefined;
    if (!why) continue;
    const route = routed.kind === 'match' ? `${x.method} ${routed.match.operation.path}` : `${x.method} ${x.path}`;
    const known = seen.get(route);
    if (known) {
      if (known.evidence.length < 5) known.evidence.push(x.seq);
      continue;
    }
    const finding: ClientFinding = { requirement: 'CLIENT-007', severity: 'risk', evidence: [x.seq], message: `${route}: ${why}; another implementation may not serve it` };
    seen.set(route, finding);
    findings.push(finding);
  }
  return { requirement: 'CLIENT-007', exercised: exchanges.length, findings };
};

/** Every rule, in catalog order. */
export const CLIENT_RULES: readonly ClientRule[] = [freshIdempotencyKeys, identicalRetries, waitsRetryAfter, boundCursors, noRefusedCursors, refetchAfterConflict, documentedRoutes];
