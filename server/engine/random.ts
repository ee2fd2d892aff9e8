// Seeded random streams. Every random choice in the engine comes from an Rng
// derived from named parts, so the same (env, d, seed) always gives the same episode.

/** 32-bit FNV-1a hash of a string. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Hash of several parts, order-sensitive. */
export function hashParts(...parts: Array<string | number>): number {
  // hashString(parts.map(String).join('\u241f')) without building the joined string (every Rng.from)
  let h = 0x811c9dc5;
  for (let p = 0; p < parts.length; p++) {
    if (p > 0) h = Math.imul(h ^ 0x241f, 0x01000193);
    const s = String(parts[p]);
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  }
  return h >>> 0;
}

/** A uniform float in [0, 1) from a hash of parts (stateless; for per-id properties). */
export function hashUnit(...parts: Array<string | number>): number {
  let x = hashParts(...parts);
  // one round of mixing so nearby inputs spread
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x = Math.imul(x ^ (x >>> 16), 0x45d9f3b);
  x ^= x >>> 16;
  return (x >>> 0) / 4294967296;
}

/** sample() traces positions instead of shuffling a copy from this length, for up to this many items. */
const TRACE_MIN_LENGTH = 512;
const TRACE_MAX_TAKE = 64;

/** Scratch for sampleByTrace: which traced slot sits at a position (−1: none). Reused; −1 between calls. */
let marks = new Int32Array(0);
function traceMarks(n: number): Int32Array {
  if (marks.length < n) marks = new Int32Array(Math.max(n, 2 * marks.length)).fill(-1);
  return marks;
}

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static from(...parts: Array<string | number>): Rng {
    return new Rng(hashParts(...parts));
  }

  /** mulberry32: fast, good enough for simulation, 2^32 period. */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  bernoulli(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick on an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** k distinct items, in random order: the first k of shuffle(items), with the same draws. */
  sample<T>(items: readonly T[], k: number): T[] {
    const n = items.length;
    const take = Math.max(0, Math.min(k, n));
    // A few of a long list (a category of ~29k ids at 2M products): trace where the first k
    // positions came from instead of copying and shuffling the whole list (issue 13).
    if (n >= TRACE_MIN_LENGTH && take <= TRACE_MAX_TAKE) return this.sampleByTrace(items, take);
    return this.shuffle(items).slice(0, take);
  }

  /**
   * shuffle(items).slice(0, take) without the copy. The backward Fisher–Yates swaps positions
   * i and j_i for i = n−1 … 1, j_i from the (n−i)-th draw; undoing the swaps in reverse order
   * (i = 1 … n−1) walks each of the first `take` positions back to the position its item started
   * at. mulberry32's state only adds a constant per draw, so the draws can be made in reverse;
   * the stream ends where shuffle leaves it.
   */
  private sampleByTrace<T>(items: readonly T[], take: number): T[] {
    const n = items.length;
    const marks = traceMarks(n);
    const from = new Int32Array(take); // from[m]: where final position m's item is, undone so far
    for (let m = 0; m < take; m++) {
      from[m] = m;
      marks[m] = m;
    }
    const start = this.state;
    let state = (start + Math.imul(n - 1, 0x6d2b79f5)) >>> 0; // the state of the last draw (i = 1)
    for (let i = 1; i < n; i++) {
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      const j = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (i + 1));
      state = (state - 0x6d2b79f5) >>> 0;
      const a = marks[i];
      const b = marks[j];
      if (a < 0 && b < 0) continue;
      marks[i] = b;
      marks[j] = a;
      if (a >= 0) from[a] = j;
      if (b >= 0) from[b] = i;
    }
    this.state = (start + Math.imul(n - 1, 0x6d2b79f5)) >>> 0;
    const out: T[] = new Array(take);
    for (let m = 0; m < take; m++) {
      out[m] = items[from[m]];
      marks[from[m]] = -1; // the scratch is all −1 again
    }
    return out;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const a = items.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }

  uniform(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Marsaglia–Tsang gamma sampler (shape > 0, scale 1). */
  gamma(shape: number): number {
    if (shape < 1) return this.gamma(shape + 1) * Math.pow(this.next(), 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = this.normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = this.next();
      if (u < 1 - 0.0331 * x ** 4) return d * v;
      if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
    }
  }

  beta(a: number, b: number): number {
    const x = this.gamma(a);
    return x / (x + this.gamma(b));
  }

  dirichlet(alphas: readonly number[]): number[] {
    const g = alphas.map((a) => this.gamma(a));
    const s = g.reduce((x, y) => x + y, 0);
    return g.map((x) => x / s);
  }

  /** Number of trials until the first success (≥ 1). */
  geometric(p: number): number {
    return Math.max(1, Math.ceil(Math.log(1 - this.next()) / Math.log(1 - p)));
  }

  poisson(lambda: number): number {
    const l = Math.exp(-lambda);
    let k = 0;
    let p = 1;
    do {
      k++;
      p *= this.next();
    } while (p > l);
    return k - 1;
  }

  /** A child stream, independent of how much this one is used later. */
  fork(label: string): Rng {
    return new Rng(hashParts(this.state, label));
  }
}
