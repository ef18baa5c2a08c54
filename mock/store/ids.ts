/**
 * Resource ids that sort, as strings, in creation order — the native ID cursor relies on it
 * (Limits › Pagination: "Native lists use an ID cursor (last resource id)").
 *
 * Shape: `<prefix>_<9 base-36 digits of a global counter><3 random base-36 chars>`. The counter's start
 * and the random tail come from the seed, so a re-seeded mock has different ids.
 */
import { Random } from './random.ts';

export class IdFactory {
  private counter: number;
  private random: Random;

  constructor(seed: number) {
    this.random = new Random(seed ^ 0x5eed1d5);
    this.counter = 36 ** 6 * (1 + (seed % 997)) + this.random.int(0, 36 ** 5);
  }

  /** The next id with this prefix (`mtr`, `wo`, ...; each record kind has its own, e.g. parts `prt`, portals `wrp`). */
  next(prefix: string): string {
    this.counter += 1 + this.random.int(0, 3);
    return `${prefix}_${this.counter.toString(36).padStart(9, '0')}${this.random.token(3)}`;
  }

  /** The counter of the last id issued (persisted by the state stores, mock/state/document.ts). */
  get last(): number {
    return this.counter;
  }

  /**
   * Continues after `counter` when it is ahead (never moves back), and draws the random tails from
   * `entropy` from now on: replicas of one store then issue different ids (mock/state/document.ts).
   */
  continueAfter(counter: number, entropy?: number): void {
    if (counter > this.counter) this.counter = counter;
    if (entropy !== undefined) this.random = new Random(entropy);
  }
}
