// pool-select.ts. mayEnterPool: the entries it leaves out of the similarity computation can
// never be in the pool. Random entries with bounds and exact keys between them (many ties: keys
// on a coarse grid), against the pool chosen by sorting the exact keys; the whole reset path is
// covered by pool-equivalence.test.ts.
import { describe, expect, it } from 'vitest';
import { Rng } from '../../random';
import { kthLargest, mayEnterPool, orderByRelevance } from './pool-select';

/** A key on a grid of `steps` values in [0, 1]: coarse grids give ties. */
const gridded = (rng: Rng, steps: number) => Math.floor(rng.next() * (steps + 1)) / steps;

describe('mayEnterPool', () => {
  it('keeps every entry of the pool, for 400 random sets of bounds and exact keys, and leaves others out', () => {
    let left = 0;
    for (let trial = 0; trial < 400; trial++) {
      const rng = new Rng(trial);
      const m = 1 + Math.floor(rng.next() * 300);
      const size = 1 + Math.floor(rng.next() * 120);
      const steps = [2, 5, 20, 1000][trial % 4];
      const major = new Float64Array(2 * m);
      const minor = new Float64Array(2 * m);
      const exact: { major: number; minor: number; id: number }[] = [];
      for (let e = 0; e < m; e++) {
        // discovery-like (major fixed, minor a range) or substitute-like (major a range)
        const [a, b] = [gridded(rng, steps), gridded(rng, steps)].sort((x, y) => x - y);
        const [c, d] = [gridded(rng, steps), gridded(rng, steps)].sort((x, y) => x - y);
        const fixedMajor = trial % 2 === 0;
        major[2 * e] = a;
        major[2 * e + 1] = fixedMajor ? a : b;
        minor[2 * e] = c;
        minor[2 * e + 1] = d;
        const t = rng.next();
        const pick = (lo: number, hi: number) => (t < 0.2 ? lo : t > 0.8 ? hi : lo + (hi - lo) * t);
        exact.push({ major: fixedMajor ? a : pick(a, b), minor: pick(c, d), id: e });
      }
      const may = mayEnterPool({ major, minor }, m, size);
      const pool = [...exact].sort((x, y) => y.major - x.major || y.minor - x.minor || x.id - y.id).slice(0, size);
      for (const e of pool) expect(may[e.id], `trial ${trial}: entry ${e.id} is in the pool`).toBe(1);
      left += m - may.reduce((sum, x) => sum + x, 0);
      if (m <= size) expect([...may].every((x) => x === 1)).toBe(true);
    }
    expect(left).toBeGreaterThan(1000); // the bound does leave entries out
  });
});

describe('kthLargest and orderByRelevance', () => {
  it('kthLargest gives the k-th value of a descending sort, for 500 random arrays with many ties', () => {
    for (let trial = 0; trial < 500; trial++) {
      const rng = new Rng(trial);
      const values = Float64Array.from({ length: 1 + Math.floor(rng.next() * 60) }, () =>
        gridded(rng, [1, 3, 50][trial % 3]),
      );
      const k = 1 + Math.floor(rng.next() * values.length);
      const want = [...values].sort((a, b) => b - a)[k - 1];
      expect(kthLargest(values.slice(), k), `trial ${trial}`).toBe(want);
    }
  });

  it('orders by relevance descending, then key ascending, as a comparator sort does (500 random sets)', () => {
    for (let trial = 0; trial < 500; trial++) {
      const rng = new Rng(trial);
      const n = Math.floor(rng.next() * 120);
      const rel = Float64Array.from({ length: n }, () => gridded(rng, [2, 10, 1000][trial % 3]));
      const keys = rng.shuffle(Array.from({ length: n }, (_, j) => j * 3 + (trial % 3)));
      const key = Float64Array.from(keys);
      const want = Array.from({ length: n }, (_, j) => j).sort((a, b) => rel[b] - rel[a] || key[a] - key[b]);
      expect([...orderByRelevance(rel, key)], `trial ${trial}`).toEqual(want);
    }
  });

  it('orders rels that differ only in their lowest bits, and ±0, zeros and negatives, as a comparator sort does', () => {
    for (let trial = 0; trial < 300; trial++) {
      const rng = new Rng(1000 + trial);
      const n = 1 + Math.floor(rng.next() * 600);
      // a few bases, each nudged by a few ulps: near-equal rels still order by the exact comparison
      const bases = [0, -0, 0.5, 0.3, -0.25, 1e-300, 7];
      const rel = Float64Array.from({ length: n }, () => {
        const base = bases[Math.floor(rng.next() * bases.length)];
        const ulps = Math.floor(rng.next() * 4);
        return base + ulps * Number.EPSILON * Math.max(Math.abs(base), Number.MIN_VALUE);
      });
      const ascending = trial % 2 === 0;
      const keys = Array.from({ length: n }, (_, j) => j * 5 + 2);
      const key = Float64Array.from(ascending ? keys : rng.shuffle(keys));
      const want = Array.from({ length: n }, (_, j) => j).sort((a, b) => rel[b] - rel[a] || key[a] - key[b]);
      expect([...orderByRelevance(rel, key)], `trial ${trial}`).toEqual(want);
    }
  });
});
