/**
 * Root causes (docs/design.md §6): every failure of a run — a universal check's finding or a test's
 * failing assertion — belongs to one root cause: what broke (the violated rule, the check or the
 * assertion that saw it), where (operations, statuses, pointers or headers), which requirements it
 * failed, and a command that reproduces it. One deviation repeated at `/items/0` and `/items/1`, on
 * several statuses and across operations, is one root cause:
 * - check findings group by their rule (`CheckFailure.rule`: the rule without operation, status or array
 *   index), so `X-Request-ID` absent from every response is one cause failing REQID-001, REQID-002 and
 *   SPEC-006 together;
 * - an assertion that compared statuses (`Expected: 201`, `Received: 200`) has the rule "answers 200
 *   instead of 201", the rule statusDocumented gives the same answer: one cause for every test and
 *   operation; an undocumented status the check cannot pair joins the one status rule that answers it;
 * - a failing assertion joins the cause of a check finding on the very exchange it read when it
 *   names what the finding is about (the header, the field) or compared the status the check judged.
 */
import type { Catalog } from '../../contract/catalog.ts';
import type { CheckFailure } from '../../contract/exchange.ts';
import type { RequirementResult, RootCause, TestOutcome } from '../../contract/report/model.ts';
import { curlCommand, shellQuote } from '../../contract/report/reproduce.ts';

type Failure = RequirementResult['failures'][number];
type Place = NonNullable<RootCause['where']>[number];

/** One rule's findings (a check rule, or one failing test's assertion). */
interface Group {
  key: string;
  rule: string;
  kind: 'check' | 'assertion';
  requirements: string[];
  failures: Map<string, Failure>;
  places: Map<string, Place>;
  /** `operationId status` of every place: a response another test borrowed is recognised by them. */
  answers: Set<string>;
  exchanges: number;
  /** Findings per check (the checks that saw it): one exchange can break one rule in the eyes of several checks. */
  byCheck: Map<string, number>;
  tests: Set<string>;
  first: { message: string; check?: string; test: string; failure: Failure };
  /** A finding of a check group, for what it is about (termsOf). */
  sample?: CheckFailure;
}

/** A JSON pointer without array indices (`/data/3/is_active` → `/data/is_active`). */
export function withoutIndices(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '') || '/';
}

/** The rule of a check finding: the check's own, else the check and its message without where it was seen. */
export function ruleOfCheck(f: Pick<CheckFailure, 'check' | 'message' | 'rule' | 'operationId' | 'status'>): string {
  if (f.rule) return f.rule;
  let text = f.message;
  if (f.operationId) text = text.split(f.operationId).join('…');
  if (f.status !== undefined) text = text.replace(new RegExp(`\\b${f.status}\\b`, 'g'), '…');
  return `${f.check}: ${text.replace(/\/\d+(?=\/|\s|$)/g, '')}`;
}

const STATUS = /^[1-5]\d\d$/;

/** What a failing assertion compared, from Playwright's `Expected:` and `Received:` lines. */
export function comparedOf(message: string): { expected: string; received: string } | undefined {
  const expected = /^Expected: (.*)$/m.exec(message)?.[1]?.trim();
  const received = /^Received: (.*)$/m.exec(message)?.[1]?.trim();
  return expected !== undefined && received !== undefined ? { expected, received } : undefined;
}

/** The status rule of two statuses, shared by assertions and statusDocumented. */
export const statusRule = (answered: number | string, instead: number | string) => `answers ${answered} instead of ${instead}`;

/**
 * The rule of a failing assertion: a status comparison's status rule, else undefined (the test is its
 * own cause). `toBe` gives `Expected: 201` / `Received: 200`; `expect(allowed).toContain(status)` gives
 * the answered status as `Expected value` and the one allowed as `Received array: [409]`.
 */
function assertionStatusRule(message: string): string | undefined {
  const c = comparedOf(message);
  if (c) return STATUS.test(c.expected) && STATUS.test(c.received) ? statusRule(c.received, c.expected) : undefined;
  const answered = /^Expected value: (\d{3})$/m.exec(message)?.[1];
  const allowed = /^Received array: \[(\d{3})\]$/m.exec(message)?.[1];
  return answered && allowed && STATUS.test(answered) && STATUS.test(allowed) ? statusRule(answered, allowed) : undefined;
}

/** What a check finding is about, as words an assertion's message would name: a header, a field. */
function termsOf(f: CheckFailure): string[] {
  const terms = new Set<string>();
  if (f.at && !f.at.startsWith('/')) for (const h of f.at.split(', ')) terms.add(h);
  if (f.at?.startsWith('/')) {
    const last = withoutIndices(f.at).split('/').filter(Boolean).at(-1);
    if (last) terms.add(last);
  }
  for (const m of f.message.matchAll(/property '([^']+)'/g)) terms.add(m[1]!);
  // A value the check quotes (`Content-Type "text/plain"`): an assertion that received it saw the same thing.
  for (const m of f.message.matchAll(/"([^"]{3,})"/g)) terms.add(m[1]!);
  // A status the check judged (`createMeter answered 200`): an assertion saying the same was about it.
  for (const m of f.message.matchAll(/\banswered \d{3}\b/g)) terms.add(m[0]);
  for (const m of f.message.matchAll(/\b(X-[A-Za-z-]+|Content-Type|request_id|api_version)\b/gi)) terms.add(m[1]!);
  return [...terms].filter((t) => t.length >= 3).map((t) => t.toLowerCase());
}

/** Whether a failing assertion (its message) is about the check finding `f` on the exchange it read. */
function sameDeviation(message: string, f: CheckFailure, exchangeStatus: number): boolean {
  const statusRuleOf = assertionStatusRule(message);
  if (statusRuleOf && f.check === 'statusDocumented' && statusRuleOf.startsWith(`answers ${exchangeStatus} `)) return true;
  // The message and what it compared (a diff's lines too), without the stack.
  const text = message.split('\n').filter((l) => !/^\s+at /.test(l)).join('\n').toLowerCase();
  return termsOf(f).some((t) => text.includes(t));
}

/** The command that reruns one test of the run (Playwright `--grep` is a regular expression). */
export function rerunCommand(title: string): string {
  return `npx mms-conformance run --grep ${shellQuote(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))}`;
}

class UnionFind {
  private parent = new Map<string, string>();
  find(k: string): string {
    let p = this.parent.get(k) ?? k;
    if (p !== k) {
      p = this.find(p);
      this.parent.set(k, p);
    }
    return p;
  }
  union(a: string, b: string): void {
    const [ra, rb] = [this.find(a), this.find(b)];
    if (ra !== rb) this.parent.set(rb, ra);
  }
}

const failedStatus = (t: TestOutcome) => t.status === 'failed' || t.status === 'timedOut' || t.status === 'interrupted';

/** The exchanges a failing assertion's evidence shows: the one it read last, after those before it. */
function assertionEvidence(t: TestOutcome): Failure['evidence'] {
  const all = t.evidence?.exchanges ?? [];
  const looked = t.evidence?.failedExchange ?? all.length - 1;
  return all.slice(0, looked + 1);
}

/** How many operations and statuses the places span ("3 operations and 2 statuses"). */
function operationCount(places: Place[]): string {
  const operations = new Set(places.map((p) => p.operationId ?? '-')).size;
  const statuses = new Set(places.map((p) => p.status)).size;
  return `${operations} operation${operations === 1 ? '' : 's'} and ${statuses} status${statuses === 1 ? '' : 'es'}`;
}

const placeText = (p: Place) => `\`${p.operationId ?? 'outside the API'}\` ${p.status ?? ''}${p.at ? ` \`${p.at}\`` : ''}`.trim();

/**
 * The root causes of a run and, per cause, the failure of each requirement it failed. `ownRequirements`
 * gives the requirements a failed test's assertion failed (verdicts.ts failedRequirementsOf). Sorted
 * must first, then checks before assertions, then by exchanges; ids `rc-1`, `rc-2`, ….
 */
export function rootCausesOf(tests: TestOutcome[], catalog: Catalog, ownRequirements: (t: TestOutcome, message: string) => string[]) {
  const groups = new Map<string, Group>();
  const uf = new UnionFind();
  const fieldRules = new Map<string, string>();
  const assertions: Array<{ key: string; ids: string[]; message: string; t: TestOutcome; read?: Failure['evidence'][number] }> = [];
  const group = (key: string, make: () => Omit<Group, 'key' | 'failures' | 'places' | 'answers' | 'exchanges' | 'byCheck' | 'tests'>): Group => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, ...make(), failures: new Map(), places: new Map(), answers: new Set(), exchanges: 0, byCheck: new Map(), tests: new Set() }));
    return g;
  };
  for (const t of tests) {
    for (const f of t.evidence?.checkFailures ?? []) {
      const rule = ruleOfCheck(f);
      const evidence = f.exchange >= 0 ? t.evidence!.exchanges[f.exchange] : undefined;
      const failure: Failure = { test: t.title, check: f.check, message: f.message, ...(f.at ? { at: f.at } : {}), rootCause: '', evidence: evidence ? [evidence] : [] };
      const g = group(`check ${rule}`, () => ({ rule, kind: 'check', requirements: [], first: { message: f.message, check: f.check, test: t.title, failure }, sample: f }));
      // A status rule an assertion opened first ("answers 200 instead of 201") is a check rule too.
      g.sample ??= f;
      g.kind = 'check';
      if (!g.requirements.includes(f.requirement)) g.requirements.push(f.requirement);
      if (!g.failures.has(f.requirement) || (evidence && !g.failures.get(f.requirement)!.evidence.length)) g.failures.set(f.requirement, failure);
      const placeKey = `${f.operationId ?? '-'} ${f.status ?? '-'} ${f.at ? withoutIndices(f.at) : ''}`;
      const place = g.places.get(placeKey) ?? { operationId: f.operationId, status: f.status, ...(f.at ? { at: withoutIndices(f.at) } : {}), exchanges: 0 };
      place.exchanges++;
      g.places.set(placeKey, place);
      g.answers.add(`${f.operationId ?? '-'} ${f.status ?? '-'}`);
      g.byCheck.set(f.check, (g.byCheck.get(f.check) ?? 0) + 1);
      g.exchanges = Math.max(g.exchanges, g.byCheck.get(f.check)!);
      g.tests.add(t.id);
      // Two checks finding fault with the same field of the same response saw one deviation
      // (problemStatusMatches and schemaValid on a problem's `/status`).
      if (f.exchange >= 0 && f.at) {
        const field = `${t.id}#${f.exchange}#${withoutIndices(f.at)}`;
        const seen = fieldRules.get(field);
        if (seen) uf.union(seen, g.key);
        else fieldRules.set(field, g.key);
      }
    }
    if (!failedStatus(t)) continue;
    const message = t.errors.join('\n').slice(0, 4000) || `test ${t.status}`;
    const ids = ownRequirements(t, message);
    const first = message.split('\n').find((l) => l.trim())?.trim().slice(0, 200) ?? '';
    const failure: Failure = { test: t.title, message, rootCause: '', evidence: assertionEvidence(t) };
    const statusRuleOf = assertionStatusRule(message);
    const key = statusRuleOf ? `check ${statusRuleOf}` : `test ${t.id}`;
    const g = group(key, () => ({ rule: statusRuleOf ?? first, kind: statusRuleOf ? 'check' : 'assertion', requirements: [], first: { message, test: t.title, failure } }));
    for (const id of ids) {
      if (!g.requirements.includes(id)) g.requirements.push(id);
      if (!g.failures.has(id)) g.failures.set(id, failure);
    }
    const read = failure.evidence.at(-1);
    if (read) {
      const placeKey = `${read.operationId ?? '-'} ${read.status} `;
      const place = g.places.get(placeKey) ?? { operationId: read.operationId, status: read.status, exchanges: 0 };
      place.exchanges++;
      g.places.set(placeKey, place);
      g.exchanges++;
    }
    g.tests.add(t.id);
    assertions.push({ key, ids, message, t, read });
  }
  for (const { key, ids, message, t, read } of assertions) {
    // The finding of a check on the very exchange the assertion read, about what the assertion compared
    // or failing the same requirement.
    const looked = t.evidence?.failedExchange;
    for (const f of t.evidence?.checkFailures ?? []) {
      if (looked === undefined || f.exchange !== looked) continue;
      if (ids.includes(f.requirement) || sameDeviation(message, f, t.evidence!.exchanges[looked]!.status)) uf.union(`check ${ruleOfCheck(f)}`, key);
    }
    // A check rule about what the assertion names (the header, the field), seen by a check proving the
    // same requirement (REQID-001's test and requestIdOnSuccess) or on the operation and status of the
    // response the assertion read (one borrowed from the test that sent it); for statusDocumented, that
    // operation and status alone.
    const answer = read ? `${read.operationId ?? '-'} ${read.status}` : undefined;
    for (const g of groups.values()) {
      if (!g.sample || g.key === key) continue;
      const sameAnswer = answer !== undefined && g.answers.has(answer);
      const sameRequirement = g.requirements.some((id) => ids.includes(id));
      if ((sameAnswer && sameRequirement && g.sample.check === 'statusDocumented') || ((sameAnswer || sameRequirement) && sameDeviation(message, g.sample, -1))) uf.union(g.key, key);
    }
  }
  // An undocumented status the check could not pair joins the one status rule that answers it.
  for (const g of groups.values()) {
    const m = /^answers (\d{3}), not documented for the operation$/.exec(g.rule);
    if (!m) continue;
    const paired = [...groups.values()].filter((o) => o.rule.startsWith(`answers ${m[1]} instead of `));
    if (paired.length === 1) uf.union(paired[0]!.key, g.key);
  }
  return assemble(groups, uf, catalog);
}

/** Unites the groups of each component into one root cause. */
function assemble(groups: Map<string, Group>, uf: UnionFind, catalog: Catalog) {
  const components = new Map<string, Group[]>();
  for (const g of groups.values()) (components.get(uf.find(g.key)) ?? components.set(uf.find(g.key), []).get(uf.find(g.key))!).push(g);
  type Cause = RootCause & { failures: Map<string, Failure> };
  const levelOf = (ids: string[]) => (ids.some((id) => catalog.byId.get(id)?.level === 'must') ? 'must' : 'inferred');
  const causes: Cause[] = [];
  for (const members of components.values()) {
    members.sort((a, b) => Number(b.kind === 'check') - Number(a.kind === 'check') || b.exchanges - a.exchanges);
    const lead = members[0]!;
    const failures = new Map<string, Failure>();
    // A requirement's failure: a failing assertion's over a check finding of the same cause (it carries the
    // test's own error: a property's counterexample and rerun line), else the first found.
    for (const g of members) {
      for (const [id, f] of g.failures) {
        const known = failures.get(id);
        if (!known || (known.check !== undefined && f.check === undefined)) failures.set(id, f);
      }
    }
    const order = (id: string) => catalog.requirements.findIndex((r) => r.id === id);
    const requirements = [...failures.keys()].sort((a, b) => order(a) - order(b));
    const where = new Map<string, Place>();
    // One place seen by several rules (checks, assertions) counts its exchanges once: the most any saw.
    for (const g of members) for (const [k, p] of g.places) where.set(k, { ...p, exchanges: Math.max(where.get(k)?.exchanges ?? 0, p.exchanges) });
    const places = [...where.values()].sort((a, b) => b.exchanges - a.exchanges);
    // The most any one rule was seen: an exchange one check and a test's assertion both judged counts once.
    const exchanges = Math.max(...members.map((g) => g.exchanges));
    const tests = new Set(members.flatMap((g) => [...g.tests])).size;
    const firstPlace = places[0];
    const evidence = lead.first.failure.evidence.at(-1);
    const checks = [...new Set(members.flatMap((g) => [...g.byCheck.keys()]))];
    const rule = lead.rule;
    const summary = lead.kind === 'assertion' && members.length === 1
      ? `${requirements.join(', ') || 'no requirement'}: ${lead.first.test} — ${rule}`
      : places.length === 1 && firstPlace
        ? `${placeText(firstPlace)}: ${lead.first.message.replace(/^\S+ \d{3} body: /, '')} (${requirements.join(', ')}${checks.length ? `, check ${checks.join(', ')}` : ''}), seen in ${exchanges} exchange${exchanges === 1 ? '' : 's'}`
        : `${rule}${checks.length ? ` (check${checks.length === 1 ? '' : 's'} ${checks.join(', ')})` : ''}, seen in ${exchanges} exchange${exchanges === 1 ? '' : 's'} of ${tests} test${tests === 1 ? '' : 's'}, ${operationCount(places)}: ${places.slice(0, 2).map(placeText).join(', ')}${places.length > 2 ? ', …' : ''}`;
    causes.push({
      id: '', kind: checks.length ? 'check' : 'assertion', summary, rule, requirements, level: levelOf(requirements), message: lead.first.message,
      ...(checks[0] ? { check: checks[0] } : {}), ...(lead.kind === 'assertion' || !checks.length ? { test: lead.first.test } : {}),
      ...(firstPlace?.operationId ? { operationId: firstPlace.operationId } : {}), ...(firstPlace?.status !== undefined ? { status: firstPlace.status } : {}), ...(firstPlace?.at ? { at: firstPlace.at } : {}),
      exchanges, tests, where: places.slice(0, 12),
      reproduce: { command: rerunCommand(lead.first.test), ...(evidence ? { curl: curlCommand(evidence) } : {}) },
      failures,
    });
  }
  causes.sort((a, b) => Number(b.level === 'must') - Number(a.level === 'must') || Number(b.kind === 'check') - Number(a.kind === 'check') || b.exchanges - a.exchanges);
  causes.forEach((c, i) => {
    c.id = `rc-${i + 1}`;
    for (const f of c.failures.values()) f.rootCause = c.id;
  });
  return causes;
}
