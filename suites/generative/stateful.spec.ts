/**
 * Stateful generative run (GEN-005): random sequences of operations that follow the spec's OpenAPI
 * links (contract/links.ts), checked against a model of the described rules (./model-rules.ts) with
 * fast-check's model-based testing (`fc.commands`, `fc.asyncModelRun`).
 *
 * The commands come from the links, one source of truth: a root command sends an operation without
 * path parameters that links lead from (a create, a list); a link command picks a response the run
 * recorded for the link's source and sends the operation the link names, with the path parameters and
 * body members its runtime expressions give; most follow commands stay on the last record and try first
 * what its last change affects (the model's transitions: delete again, retire twice, a stale version …).
 * A link read from a list item is followed only to a read, which is a dead end: the item may be another
 * client's record. So the requests sent depend on the seed and on this sequence's own records only (a
 * run is deterministic beside any other tests). Each answer must be documented and never a 5xx, and must
 * be one the model allows in its state.
 *
 * Bounded: 3 × `statefulBudget()` sequences of at most 7 × budget commands (one request each), on the full-scope live key pool
 * (paced by the rate-limit headers). Failures carry the seed, the shrunk command sequence and a curl
 * command per request of it; `FC_SEED` + `FC_PATH` + `FC_REPLAY_PATH` (the
 * rerun line of the report) replay exactly that sequence. The stated rules stay
 * at their own requirements (WO-011, METER-010, EXP-012, PARTS-002 … proven by their own tests); this
 * inferred requirement never decides certification.
 */
import { test, expect } from '../fixtures.ts';
import { fc } from '../../contract/arbitraries/valid-values.ts';
import type { Operation } from '../../contract/openapi.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import { follow, fromListItem, loadLinks, type Link } from '../../contract/links.ts';
import type { ApiClient, ApiResponse } from '../lib/client.ts';
import type { Answered, WorkOrderEnvelope, WorkRequestWrapper } from '../lib/api-types.ts';
import { meterBody } from '../kits/meters.ts';
import { Model, operationKey, type Recorded, type Step } from './model.ts';
import { RULES } from './model-rules.ts';
import { STATEFUL_REQUIREMENTS, describeStep, stepProvenance } from './model-provenance.ts';
import { commandsReplay, genParameters, statefulBudget, genSeed, requestDigest } from './run-parameters.ts';
import { pathParams } from './request-generation.ts';
import { sequenceFailure, type GenRequest } from './replay.ts';

/** The links between modelled operations the run follows. */
export function modelledLinks(profile: TargetProfile): Link[] {
  return loadLinks().filter((l) =>
    RULES[l.from.operationId] && RULES[l.to.operationId] && (!fromListItem(l) || l.to.method === 'GET')
    // Entries are owned by the profile's active user (the API cannot create users).
    && (l.to.operationId !== 'createWorkOrderExpense' || profile.fixtures.activeUserId !== undefined));
}

interface Real {
  api: ApiClient;
  profile: TargetProfile;
  /** Bodies of root creates the description does not show, prepared once (a meter's asset). */
  rootBodies: Record<string, Record<string, unknown>>;
  sent: GenRequest[];
}

type Command = fc.AsyncCommand<Model, Real>;
const ok = (status: number) => status >= 200 && status < 300;

/** How a step was reached: through a list's first item (another client's record, maybe). */
interface Via { listed?: Link }

/** An answer the run reads a record id from: a native record's envelope (`data.id`) or a work request's wrapper. */
type Created = Answered<Pick<WorkOrderEnvelope, 'data'> & WorkRequestWrapper>;

/** The record a step acts on: its path id, else the work request it names, else the record its answer created. */
function recordOf(step: Step, res?: ApiResponse<Created>): string | undefined {
  return step.pathParams.id ?? (step.body?.workRequestId as string | undefined) ?? res?.body?.data?.id ?? res?.body?.workRequest?.id;
}

/**
 * Sends one step: the rule's body, the documented-status, no-5xx and
 * model checks, then the model update. A read of a list's first item is a dead end: its answer is no
 * source of further links (the record may be another client's, its state shared), and its path is
 * written in the digest as the link that chose it.
 */
async function sendStep(m: Model, r: Real, op: Operation, s: Step, via: Via = {}): Promise<void> {
  const rule = RULES[op.operationId]!;
  const step = { ...s, body: rule.body ? rule.body(m, s, r.profile) : s.body };
  const allowed = rule.expect(m, step);
  const request: GenRequest = { method: step.method, path: step.path, query: {}, json: step.body, ...(via.listed && { digestPath: `${op.path} (${via.listed.name})` }) };
  r.sent.push(request);
  m.sent++;
  const record0 = via.listed ? undefined : recordOf(step);
  if (record0 !== undefined) m.tried.add(m.triedKey(operationKey(op.operationId, step), record0)).add(m.triedOnAnyKey(operationKey(op.operationId, step), record0));
  const res = await r.api.send<Created>(step.method, step.path, step.body === undefined ? {} : { json: step.body });
  const what = `${op.operationId} ${step.method} ${step.path} answered ${res.status}: ${res.text.slice(0, 200)}`;
  expect(res.status, `no 5xx — ${what}`).toBeLessThan(500);
  expect([...op.responses.map((x) => x.status), 429], `a documented status — ${what}`).toContain(res.status);
  if (allowed) expect(allowed, `the model allows ${allowed.join(' or ')} (${describeStep(stepProvenance(op, operationKey(op.operationId, step)))}) — ${what}`).toContain(res.status);
  rule.apply?.(m, step, res);
  if (via.listed) return;
  if (ok(res.status)) m.record({ operationId: op.operationId, status: res.status, requestPath: step.pathParams, requestBody: step.body, responseBody: res.body });
  const record = recordOf(step, res);
  if (m.owns(record)) {
    m.focus = record;
    m.last = { operation: operationKey(op.operationId, step), record: record! };
  }
}

/** The root operations of the links: those without path parameters that links lead from (creates, lists). */
function rootsOf(links: Link[]): Operation[] {
  return [...new Map(links.filter((l) => !l.from.path.includes('{')).map((l) => [l.from.operationId, l.from])).values()];
}

/** Sends a root operation (no path parameters): a create or a list. */
class Root implements Command {
  constructor(readonly op: Operation, readonly variant: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await sendStep(m, r, this.op, { method: this.op.method, path: this.op.path, pathParams: {}, body: r.rootBodies[this.op.operationId], variant: this.variant });
  }
  toString = () => `${this.op.operationId}(#${this.variant})`;
}

/** A step a link leads to in the sequence's state, with the operation as the model names it and its record. */
interface Candidate { link: Link; step: Step; operation: string; record?: string }

/** The steps `link` leads to from one recorded response (one per kind of its rule) that the rule lets run. */
function stepsFrom(m: Readonly<Model>, link: Link, source: Recorded, variant: number): Candidate[] {
  const to = follow(link, { requestPath: source.requestPath, requestBody: source.requestBody, responseBody: source.responseBody });
  if (!to) return [];
  const rule = RULES[link.to.operationId]!;
  return (rule.kinds ?? [undefined]).flatMap((kind) => {
    const step: Step = { method: link.to.method, path: to.path, pathParams: pathParams(link.to, to.path), body: to.body, variant, kind };
    if (!(rule.applies?.(m as Model, step) ?? true)) return [];
    return [{ link, step, operation: operationKey(link.to.operationId, step), record: fromListItem(link) ? undefined : recordOf(step) }];
  });
}

/**
 * The steps the links lead to in the sequence's state: from the `pick`-th newest response each link's
 * source recorded or, with `focus`, from the newest one that leads to that record (list items apart). A
 * link from a list's first item runs only when the model knows the list holds a record.
 */
function candidates(m: Readonly<Model>, links: Link[], variant: number, pick: number, focus?: string): Candidate[] {
  return links.flatMap((link) => {
    if (fromListItem(link) && (focus !== undefined || !(RULES[link.from.operationId]!.holds?.(m as Model) ?? false))) return [];
    const sources = (m.recorded.get(link.from.operationId) ?? []).filter((x) => x.status === link.status).reverse();
    if (focus === undefined) {
      const source = sources[pick % Math.max(1, sources.length)];
      return source ? stepsFrom(m, link, source, variant) : [];
    }
    for (const source of sources) {
      const found = stepsFrom(m, link, source, variant).filter((c) => c.record === focus);
      if (found.length > 0) return found;
    }
    return [];
  });
}

/**
 * Follows one of the links that can be followed in the sequence's state (a source recorded, the rule
 * applies). `focused`: one that acts on the record the last step acted on and was not sent yet on that
 * record in its current modelled state, when there is one — first the operations the last step's rule
 * `affects` (after a delete, the read and the delete again), then the model's transitions (operations
 * that affect others; deleting the record itself last), then any. Otherwise, or when the record has
 * nothing left to try, one not sent yet in its record's state from the `pick`-th newest response of its
 * source. `choice` picks among them; when there is none, a root create (chosen by `choice`) starts a record.
 */
class Follow implements Command {
  /** What the last run sent (for the printed sequence). */
  private chosen?: Candidate;
  constructor(readonly links: Link[], readonly choice: number, readonly pick: number, readonly variant: number, readonly focused: boolean) {}
  private options(m: Readonly<Model>): Candidate[] {
    const untried = (list: Candidate[]) => list.filter((c) => c.record === undefined || !m.tried.has(m.triedKey(c.operation, c.record)));
    const onFocus = untried(this.focused && m.focus !== undefined ? candidates(m, this.links, this.variant, this.pick, m.focus) : []);
    if (onFocus.length === 0) return untried(candidates(m, this.links, this.variant, this.pick));
    const affected = m.last?.record === m.focus ? RULES[m.last!.operation.split(':')[0]!]!.affects ?? [] : [];
    const probes = onFocus.filter((c) => affected.includes(c.operation) || affected.includes(c.link.to.operationId));
    const transitions = onFocus.filter((c) => RULES[c.link.to.operationId]!.affects !== undefined);
    // Deleting the record itself ends most of its transitions: it waits for the others.
    const ending = (c: Candidate) => c.step.method === 'DELETE' && c.step.path.endsWith(`/${encodeURIComponent(c.record!)}`);
    const tier = [probes, transitions.filter((c) => !ending(c)), transitions, onFocus].find((x) => x.length > 0)!;
    // Those not sent yet on any record of the sequence in that state first: the next record tries others.
    const unseen = tier.filter((c) => !m.tried.has(m.triedOnAnyKey(c.operation, c.record!)));
    return unseen.length > 0 ? unseen : tier;
  }
  check = () => true;
  /**
   * A fresh copy for every run (fast-check clones a cloneable command before each run): `chosen` and
   * `root` then describe the one run that used this copy, so the shrunk sequence printed after later
   * shrinking attempts names what the failing run sent, not what a later attempt chose.
   */
  [fc.cloneMethod](): Follow {
    return new Follow(this.links, this.choice, this.pick, this.variant, this.focused);
  }
  async run(m: Model, r: Real) {
    const options = this.options(m);
    if (options.length === 0) {
      // Nothing (new) to follow: a create starts a record (a list's first item is a dead end).
      const creates = rootsOf(this.links).filter((o) => o.method === 'POST');
      const op = creates[this.choice % creates.length]!;
      this.chosen = undefined;
      this.root = op.operationId;
      await sendStep(m, r, op, { method: op.method, path: op.path, pathParams: {}, body: r.rootBodies[op.operationId], variant: this.variant });
      return;
    }
    const chosen = (this.chosen = options[this.choice % options.length]!);
    await sendStep(m, r, chosen.link.to, chosen.step, chosen.record === undefined ? { listed: chosen.link } : {});
  }
  /** The root sent when nothing could be followed (for the printed sequence). */
  private root?: string;
  toString = () => `${this.chosen ? `${this.chosen.link.from.operationId} →${this.chosen.link.name}→ ${this.chosen.operation}` : this.root ? `${this.root} (nothing to follow)` : 'follow'}(#${this.choice}, #${this.pick}, #${this.variant}${this.focused ? ', focused' : ''})`;
}

/** The command arbitrary of the links: roots (creates, lists) one in eight, link follows six in eight focused, one in eight not. */
export function commandsOf(links: Link[], maxCommands: number) {
  const root = fc.tuple(fc.constantFrom(...rootsOf(links)), fc.nat(99)).map(([op, v]) => new Root(op, v) as Command);
  // Unbiased: fast-check favours small integers, which would favour the first of the options every time.
  // 840 is a multiple of 1..8: `choice % n` is uniform for the few options a step has.
  const followed = (focused: boolean) => fc.noBias(fc.tuple(fc.nat(839), fc.nat(3), fc.nat(99))).map(([choice, pick, v]) => new Follow(links, choice, pick, v, focused) as Command);
  const focused = followed(true);
  return fc.commands([root, focused, focused, focused, focused, focused, focused, followed(false)], { maxCommands, size: 'max', ...commandsReplay() });
}

test('sequences following the spec\'s links agree with the model of the described rules', { tag: ['@GEN', ...STATEFUL_REQUIREMENTS.map((id) => `@${id}`)] }, async ({ api, profile }) => {
  test.setTimeout(300_000);
  const seed = genSeed(statefulBudget());
  const links = modelledLinks(profile);
  const rootBodies = { createMeter: await meterBody(api, profile) };
  let runs = 0;
  let requests = 0;
  const all: GenRequest[] = [];
  await fc.assert(
    fc.asyncProperty(commandsOf(links, 7 * statefulBudget()), async (cmds) => {
      const real: Real = { api, profile, rootBodies, sent: [] };
      runs++;
      try {
        await fc.asyncModelRun(() => ({ model: new Model(), real }), cmds);
      } catch (e) {
        throw sequenceFailure(e, seed, profile.baseUrl, real.sent);
      } finally {
        requests += real.sent.length;
        all.push(...real.sent);
      }
    }),
    // A sequence is worth several single requests: 3 × budget sequences.
    { ...genParameters(seed, 200_000), numRuns: 3 * statefulBudget() },
  );
  const summary = `stateful: ${runs} sequences, ${requests} requests over ${links.length} links, digest ${requestDigest(all)}`;
  test.info().annotations.push({ type: 'generative', description: summary });
  process.stdout.write(`${summary}\n`);
  expect(requests, 'the sequences sent requests').toBeGreaterThan(0);
});
