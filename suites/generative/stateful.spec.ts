/**
 * Stateful generative run (GEN-005): random sequences of operations that follow the spec's OpenAPI
 * links (contract/links.ts), checked against a model of the described rules (./model.ts) with
 * fast-check's model-based testing (`fc.commands`, `fc.asyncModelRun`).
 *
 * The commands come from the links, one source of truth: a root command sends an operation without
 * path parameters that links lead from (a create, a list); a link command picks a response the run
 * recorded for the link's source and sends the operation the link names, with the path parameters and
 * body members its runtime expressions give. A link read from a list item is followed only to a read:
 * the item may be another client's record. Each answer must be documented and never a 5xx, and must be
 * one the model allows in its state.
 *
 * Bounded: 3 × `genBudget()` sequences of at most 10 × budget commands each, on the full-scope live key pool
 * (paced by the rate-limit headers). Failures carry the seed, the shrunk command sequence and a curl
 * command per request of it; `FC_SEED` + `FC_PATH` + `FC_REPLAY_PATH` (the
 * rerun line of the report) replay exactly that sequence. The stated rules stay
 * at their own requirements (WO-011, METER-010, EXP-012, PARTS-002 … proven by their own tests); this
 * inferred requirement never decides certification.
 */
import { test, expect } from '../fixtures.ts';
import { fc } from '../../contract/arbitraries.ts';
import type { Operation } from '../../contract/openapi.ts';
import type { TargetProfile } from '../../contract/profile.ts';
import { follow, fromListItem, loadLinks, type Link } from '../../contract/links.ts';
import type { ApiClient } from '../lib/client.ts';
import { meterBody } from '../kits/meters.ts';
import { Model, RULES, type Step } from './model.ts';
import { commandsReplay, genBudget, genParameters, genSeed, pathParams, requestDigest, sequenceFailure, type GenRequest } from './lib.ts';

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

/** Sends one step: the rule's body, the documented-status, no-5xx and model checks, then the model update. */
async function sendStep(m: Model, r: Real, op: Operation, s: Step): Promise<void> {
  const rule = RULES[op.operationId]!;
  const step = { ...s, body: rule.body ? rule.body(m, s, r.profile) : s.body };
  const allowed = rule.expect(m, step);
  const request: GenRequest = { method: step.method, path: step.path, query: {}, json: step.body };
  r.sent.push(request);
  m.sent++;
  const res = await r.api.send(step.method, step.path, step.body === undefined ? {} : { json: step.body });
  const what = `${op.operationId} ${step.method} ${step.path} answered ${res.status}: ${res.text.slice(0, 200)}`;
  expect(res.status, `no 5xx — ${what}`).toBeLessThan(500);
  expect([...op.responses.map((x) => x.status), 429], `a documented status — ${what}`).toContain(res.status);
  if (allowed) expect(allowed, `the model allows ${allowed.join(' or ')} — ${what}`).toContain(res.status);
  rule.apply?.(m, step, res);
  if (ok(res.status)) m.record({ operationId: op.operationId, status: res.status, requestPath: step.pathParams, requestBody: step.body, responseBody: res.body });
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

/** The step a link leads to from the `pick`-th response its source recorded, when the rule lets it run. */
function stepOf(m: Readonly<Model>, link: Link, pick: number, variant: number, partsKind: Step['partsKind']): Step | undefined {
  const sources = (m.recorded.get(link.from.operationId) ?? []).filter((x) => x.status === link.status);
  const source = sources[pick % Math.max(1, sources.length)];
  if (!source) return undefined;
  const to = follow(link, { requestPath: source.requestPath, requestBody: source.requestBody, responseBody: source.responseBody });
  if (!to) return undefined;
  const step = { method: link.to.method, path: to.path, pathParams: pathParams(link.to, to.path), body: to.body, variant, partsKind: link.to.operationId === 'commandWorkOrderParts' ? partsKind : undefined };
  return (RULES[link.to.operationId]!.applies?.(m as Model, step) ?? true) ? step : undefined;
}

/**
 * Follows the `choice`-th of the links that can be followed in the sequence's state (a source recorded,
 * the rule applies), from the `pick`-th response of its source: every command after the first root runs.
 */
class Follow implements Command {
  /** The link the last run followed (for the printed sequence). */
  private chosen?: Link;
  constructor(readonly links: Link[], readonly choice: number, readonly pick: number, readonly variant: number, readonly partsKind: Step['partsKind']) {}
  private open(m: Readonly<Model>): Array<{ link: Link; step: Step }> {
    return this.links.flatMap((link) => {
      const step = stepOf(m, link, this.pick, this.variant, this.partsKind);
      return step ? [{ link, step }] : [];
    });
  }
  check(m: Readonly<Model>) {
    return this.open(m).length > 0;
  }
  async run(m: Model, r: Real) {
    const open = this.open(m);
    const { link, step } = open[this.choice % open.length]!;
    this.chosen = link;
    await sendStep(m, r, link.to, step);
  }
  toString = () => `${this.chosen ? `${this.chosen.from.operationId} →${this.chosen.name}→ ${this.chosen.to.operationId}` : 'follow'}(#${this.choice}, #${this.pick}, #${this.variant}${this.chosen?.to.operationId === 'commandWorkOrderParts' ? `, ${this.partsKind}` : ''})`;
}

/** The command arbitrary of the links: roots (creates, lists) and link follows, one in four a root. */
export function commandsOf(links: Link[], maxCommands: number) {
  const roots = [...new Map(links.filter((l) => !l.from.path.includes('{')).map((l) => [l.from.operationId, l.from])).values()];
  const root = fc.tuple(fc.constantFrom(...roots), fc.nat(99)).map(([op, v]) => new Root(op, v) as Command);
  const kinds = fc.constantFrom<Step['partsKind']>('fresh', 'fresh', 'retry', 'stale', 'reuse-key');
  const followed = fc.tuple(fc.nat(links.length - 1), fc.nat(3), fc.nat(99), kinds).map(([choice, pick, v, kind]) => new Follow(links, choice, pick, v, kind) as Command);
  return fc.commands([root, followed, followed, followed], { maxCommands, size: 'max', ...commandsReplay() });
}

test('sequences following the spec\'s links agree with the model of the described rules', { tag: ['@GEN', '@GEN-005'] }, async ({ api, profile }) => {
  test.setTimeout(300_000);
  const seed = genSeed();
  const links = modelledLinks(profile);
  const rootBodies = { createMeter: await meterBody(api, profile) };
  let runs = 0;
  let requests = 0;
  const all: GenRequest[] = [];
  await fc.assert(
    fc.asyncProperty(commandsOf(links, 10 * genBudget()), async (cmds) => {
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
    { ...genParameters(seed, 200_000), numRuns: 3 * genBudget() },
  );
  const summary = `stateful: ${runs} sequences, ${requests} requests over ${links.length} links, digest ${requestDigest(all)}`;
  test.info().annotations.push({ type: 'generative', description: summary });
  process.stdout.write(`${summary}\n`);
  expect(requests, 'the sequences sent requests').toBeGreaterThan(0);
});
