/**
 * A seeded pseudo-random source for seed data and ids, over pure-rand's xoroshiro128+ (the generator
 * fast-check uses), so the same seed always builds the same world.
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

export class Random {
  private readonly rng: ReturnType<typeof xoroshiro128plus>;

  constructor(seed: number) {
    this.rng = xoroshiro128plus(seed | 0);
  }

  /** An integer in [min, max], inclusive. */
  int(min: number, max: number): number {
    return uniformInt(this.rng, min, max);
  }

  /** true with probability p (0..1). */
  chance(p: number): boolean {
    return this.int(0, 9999) < p * 10000;
  }

  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** A random base-36 string of `length` characters. */
  token(length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += ALPHABET[this.int(0, 35)];
    return s;
  }

  /** A shuffled copy of `items`. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}
