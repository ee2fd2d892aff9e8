import { describe, expect, it } from 'vitest';
import { Rng } from './random';

/** Rng.sample as it was before the trace: the first k of a whole shuffled copy. */
function sampleByShuffle<T>(rng: Rng, items: readonly T[], k: number): T[] {
  return rng.shuffle(items).slice(0, Math.min(k, items.length));
}

describe('Rng.sample', () => {
  it('gives the first k of shuffle, and leaves the stream where shuffle does, over many seeds and sizes', () => {
    const sizes = [1, 2, 63, 511, 512, 513, 1000, 4097, 29_000];
    const takes = [0, 1, 2, 12, 40, 60, 64, 65, 200];
    let cases = 0;
    for (const n of sizes) {
      const items = Array.from({ length: n }, (_, i) => 7 * i + 3);
      for (const k of takes) {
        for (let seed = 0; seed < (n > 5000 ? 4 : 25); seed++) {
          const a = Rng.from('sample', n, k, seed);
          const b = Rng.from('sample', n, k, seed);
          expect(a.sample(items, k)).toEqual(sampleByShuffle(b, items, k));
          expect(a.next()).toBe(b.next()); // the same number of draws
          cases++;
        }
      }
    }
    expect(cases).toBeGreaterThan(1500);
  });

  it('returns distinct items of the list, and the same again after a longer list used the scratch', () => {
    const long = Array.from({ length: 40_000 }, (_, i) => i);
    const short = Array.from({ length: 600 }, (_, i) => `p${i}`);
    const first = Rng.from('distinct').sample(short, 64);
    Rng.from('other').sample(long, 64);
    const again = Rng.from('distinct').sample(short, 64);
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(64);
    for (const x of first) expect(short).toContain(x);
  });
});
