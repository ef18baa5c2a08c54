/**
 * Shared catch-ups of the PostgreSQL store (mock/state/postgres-reads.ts; docs/integrators.md, "State and
 * replicas"): a read is answered only by a catch-up sent after it arrived (read-your-write across
 * replicas), reads arriving meanwhile go out together, at most `inFlight` at once, and each rate take
 * gets its own slot of its window, in arrival order.
 */
import { test, expect } from '@playwright/test';
import { CatchUps, slotsOf, takeValues, type RateTake } from '../state/postgres-reads.ts';

interface Sent { takes: RateTake[]; done(slots: number[]): void; fail(e: Error): void }

/** A CatchUps whose catch-ups wait until the test ends them. */
function held(inFlight = 2) {
  const sent: Sent[] = [];
  const catchUps = new CatchUps((takes) => new Promise((done, fail) => sent.push({ takes, done, fail })), inFlight);
  return { sent, catchUps };
}
/** Lets every pending turn of the event loop run (a finished catch-up sends the next one in a turn of its own). */
const turn = async () => {
  for (let k = 0; k < 3; k++) await new Promise((done) => setImmediate(done));
};

test('a read arriving while a catch-up is in flight is not answered by it, but by the next, shared with the others that waited', async () => {
  const { sent, catchUps } = held(1);
  const first = catchUps.join();
  await turn();
  expect(sent).toHaveLength(1);
  let secondDone = false;
  const second = catchUps.join().then(() => (secondDone = true));
  const third = catchUps.join({ bucket: 'k1', start: 0 });
  await turn();
  expect(sent).toHaveLength(1); // one at a time: the two wait
  sent[0]!.done([]);
  await first;
  await turn();
  expect(secondDone).toBe(false);
  expect(sent).toHaveLength(2);
  expect(sent[1]!.takes).toEqual([{ bucket: 'k1', start: 0 }]);
  sent[1]!.done([7]);
  await second;
  expect(await third).toBe(7);
});

test('reads of one turn of the event loop go in one catch-up; at most inFlight catch-ups run at once', async () => {
  const { sent, catchUps } = held(2);
  const reads = [catchUps.join(), catchUps.join(), catchUps.join()];
  await turn();
  expect(sent).toHaveLength(1);
  reads.push(catchUps.join());
  await turn();
  reads.push(catchUps.join(), catchUps.join());
  await turn();
  expect(sent).toHaveLength(2); // the third waits for a free place
  sent[0]!.done([]);
  await turn();
  expect(sent).toHaveLength(3);
  sent[1]!.done([]);
  sent[2]!.done([]);
  expect(await Promise.all(reads)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
});

test("a failed catch-up fails its own reads only", async () => {
  const { sent, catchUps } = held(1);
  const failing = catchUps.join();
  await turn();
  const later = catchUps.join();
  sent[0]!.fail(new Error('connection lost'));
  await expect(failing).rejects.toThrow('connection lost');
  await turn();
  sent[1]!.done([]);
  await expect(later).resolves.toBeUndefined();
});

test('takes: one entry per bucket (latest window, count), buckets in order; slots handed out in arrival order', () => {
  const takes: RateTake[] = [{ bucket: 'b', start: 60_000 }, { bucket: 'a', start: 0 }, { bucket: 'b', start: 120_000 }, { bucket: 'b', start: 120_000 }];
  expect(takeValues(takes)).toEqual([['a', 'b'], [0, 120_000], [1, 3]]);
  expect(slotsOf(takes, new Map([['a', 5], ['b', 12]]))).toEqual([10, 5, 11, 12]);
});
