/**
 * Reproducing a generative failure (docs/generative.md): a forced failing property prints its seed and
 * the path of its shrunk counterexample; the report's rerun line (FC_SEED, FC_PATH) replays exactly that
 * counterexample with the generative phases' own parameters; a failed sequence carries its requests as
 * curl commands.
 */
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { commandsReplay, genParameters, sequenceFailure, type GenRequest, type GenSettings } from '../generative/replay.ts';
import { withRerunCommand } from '../reporter/property-failure.ts';

/** The message fast-check's assert throws, or '' when the property holds. */
async function failure(run: () => Promise<void> | void): Promise<string> {
  try {
    await run();
    return '';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

const counterexampleOf = (message: string) => /^Counterexample: (.*)$/m.exec(message)?.[1];

/** A forced failure: any request list holding a POST of an amount over 500 after at least two requests. */
function sentProperty(sent: GenRequest[][]) {
  const request = fc.record({ method: fc.constantFrom('GET', 'POST'), amount: fc.integer({ min: 0, max: 1000 }) });
  return fc.asyncProperty(fc.array(request, { maxLength: 8 }), async (list) => {
    const requests: GenRequest[] = [];
    try {
      for (const r of list) {
        requests.push({ method: r.method, path: '/work-orders/wo_1/other-costs', query: {}, json: { amount_minor: r.amount } });
        if (requests.length > 2 && r.method === 'POST' && r.amount > 500) throw new Error(`amount ${r.amount} refused`);
      }
    } catch (e) {
      sent.push(requests);
      throw sequenceFailure(e, 7, 'http://127.0.0.1:4010/v1', requests);
    }
  });
}


test('a failure prints its seed, path and shrunk sequence; FC_SEED + FC_PATH replay exactly that counterexample', async () => {
  const settings: GenSettings = { testTimeout: 60_000, genBudget: 200 };
  const sent: GenRequest[][] = [];
  const first = await failure(() => fc.assert(sentProperty(sent), genParameters(settings, 1234)));
  expect(first).toMatch(/^Property failed after \d+ tests/);
  const rerun = /Rerun: FC_SEED=(-?\d+) FC_PATH=([\d:]+) npx mms-conformance run --grep "(.*)"$/m.exec(withRerunCommand(first, 'a "quoted" title'));
  expect(rerun, withRerunCommand(first, 't')).not.toBeNull();
  expect(rerun![1]).toBe('1234');
  expect(rerun![3]).toBe('a \\"quoted\\" title');
  const shrunk = counterexampleOf(first)!;
  expect(shrunk, 'shrunk to the smallest failing sequence').toMatch(/^\[\[\{"method":"(GET|POST)","amount":\d+\},\{"method":"(GET|POST)","amount":\d+\},\{"method":"POST","amount":501\}\]\]$/);
  // The shrunk sequence's requests, one curl each, the key never written.
  expect(first).toContain('── sequence of 3 requests (seed=7):');
  expect(first).toContain(`  3. curl -sS -i -X POST 'http://127.0.0.1:4010/v1/work-orders/wo_1/other-costs' -H "Authorization: Bearer $MMS_KEY_LIVE" -H 'Content-Type: application/json' --data-raw '{"amount_minor":501}'`);

  settings.path = rerun![2];
  const replayed: GenRequest[][] = [];
  const second = await failure(() => fc.assert(sentProperty(replayed), genParameters(settings, Number(rerun![1]))));
  expect(counterexampleOf(second), 'the replay reaches the same counterexample').toBe(shrunk);
  expect(replayed.length, 'the replay runs that one case and nothing else').toBe(1);
  expect(replayed[0]).toEqual(sent[sent.length - 1]);
});

test('a model-based run (fc.commands) replays its shrunk command sequence from FC_SEED + FC_PATH', async () => {
  const settings: GenSettings = { testTimeout: 60_000, genBudget: 100 };
  type Model = { deleted: boolean };
  type Real = { log: string[] };
  class Del implements fc.Command<Model, Real> {
    check = () => true;
    run(m: Model, r: Real) { r.log.push('DELETE'); m.deleted = true; }
    toString = () => 'delete';
  }
  class Get implements fc.Command<Model, Real> {
    check = () => true;
    run(m: Model, r: Real) {
      r.log.push('GET');
      // A forced bug: a read after two deletes answers 200.
      if (r.log.filter((x) => x === 'DELETE').length >= 2) throw new Error('a soft-deleted record answered 200');
    }
    toString = () => 'get';
  }
  const makeProperty = () => fc.property(fc.commands([fc.constant(new Del()), fc.constant(new Get())], { maxCommands: 20, ...commandsReplay(settings) }), (cmds) => {
    fc.modelRun(() => ({ model: { deleted: false }, real: { log: [] } }), cmds);
  });
  const first = await failure(() => fc.assert(makeProperty(), genParameters(settings, 99)));
  expect(counterexampleOf(first), 'shrunk to the two deletes and the read').toMatch(/^\[delete,delete,get( \/\*replayPath=.*\*\/)?\]$/);
  const rerun = /FC_SEED=(-?\d+) FC_PATH=([\d:]+) FC_REPLAY_PATH=(\S+) /.exec(withRerunCommand(first, 't'))!;
  expect(rerun, withRerunCommand(first, 't')).not.toBeNull();
  settings.path = rerun[2];
  settings.replayPath = rerun[3];
  // The property is built again, as a replaying run builds it (the arbitrary reads the replay path).
  const second = await failure(() => fc.assert(makeProperty(), genParameters(settings, Number(rerun[1]))));
  expect(counterexampleOf(second), 'the replay reaches the same sequence').toBe(counterexampleOf(first));
});
