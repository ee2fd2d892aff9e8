// Choosing and ordering the PD/SUB evaluation pool's entries (recommend-pool.ts) over typed
// arrays: the bound that spares most entries their similarity, a quickselect, and the pool's
// final order. Every choice is the one a full sort by the same keys would make.

/**
 * Which of m pool entries may enter the pool of `size`, from bounds on their sort keys: entry e's
 * keys (major, minor), compared major first, lie between (major[2e], minor[2e]) — its similarity 0
 * — and (major[2e + 1], minor[2e + 1]) — similarity 1 (utility and relevance do not decrease
 * with the similarity, also in floating point: a sum or product with a larger term is not
 * smaller). At least `size` entries are at or above the size-th best lower bound, so an entry
 * whose upper bound is below it cannot be in the pool, whatever the similarities and ids.
 * The size-th best lower bound is found with two selections over numbers: its major is the
 * size-th largest lower major, its minor the r-th largest lower minor among the entries of that
 * major, r being what the entries of larger majors leave of `size`.
 */
export function mayEnterPool(
  bounds: { major: Float64Array; minor: Float64Array },
  m: number,
  size: number,
): Uint8Array {
  const may = new Uint8Array(m).fill(1);
  if (m <= size) return may;
  const { major, minor } = bounds;
  const majors = new Float64Array(m);
  for (let e = 0; e < m; e++) majors[e] = major[2 * e];
  const worstMajor = kthLargest(majors, size);
  let above = 0;
  let level = 0;
  for (let e = 0; e < m; e++) {
    if (major[2 * e] > worstMajor) above++;
    else if (major[2 * e] === worstMajor) level++;
  }
  const minors = new Float64Array(level);
  for (let e = 0, j = 0; e < m; e++) if (major[2 * e] === worstMajor) minors[j++] = minor[2 * e];
  const worstMinor = kthLargest(minors, size - above);
  for (let e = 0; e < m; e++) {
    const hi = 2 * e + 1;
    if (major[hi] < worstMajor || (major[hi] === worstMajor && minor[hi] < worstMinor)) may[e] = 0;
  }
  return may;
}

/** The k-th largest of `values` (1 ≤ k ≤ length; no NaN), which it reorders: quickselect. */
export function kthLargest(values: Float64Array, k: number): number {
  const target = values.length - k; // its position in ascending order
  let lo = 0;
  let hi = values.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    if (values[mid] < values[lo]) swap(values, mid, lo);
    if (values[hi] < values[lo]) swap(values, hi, lo);
    if (values[hi] < values[mid]) swap(values, hi, mid);
    const pivot = values[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (pivot < values[j]) j--;
      if (i <= j) swap(values, i++, j--);
    }
    // [lo, j] ≤ pivot ≤ [i, hi]; elements between j and i equal the pivot
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return values[target];
  }
  return values[target];
}

/**
 * Rearranges `order` so that its first k elements are the k smallest under `cmp` (a strict
 * total order), in any order: quickselect, median-of-three pivots.
 */
export function selectTop(order: number[], k: number, cmp: (a: number, b: number) => number): void {
  let lo = 0;
  let hi = order.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    // median of three to order[mid]
    if (cmp(order[mid], order[lo]) < 0) swap(order, mid, lo);
    if (cmp(order[hi], order[lo]) < 0) swap(order, hi, lo);
    if (cmp(order[hi], order[mid]) < 0) swap(order, hi, mid);
    const pivot = order[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (cmp(order[i], pivot) < 0) i++;
      while (cmp(pivot, order[j]) < 0) j--;
      if (i <= j) swap(order, i++, j--);
    }
    // [lo, j] ≤ pivot ≤ [i, hi]; elements between j and i equal the pivot
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}

function swap(a: number[] | Float64Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}

let words = new ArrayBuffer(8 * 512); // orderByRelevance's 64-bit words (reused)

/**
 * Positions 0..n-1 by rel descending, then key ascending (keys: distinct whole numbers < 2^32), in the
 * first n entries returned: words of each rel's bits (in reverse rel order, the low bits the key's rank)
 * sorted natively, then an insertion pass with the exact comparison (~half a merge sort's time at 300).
 */
export function orderByRelevance(
  rel: Float64Array,
  key: Float64Array,
  n: number = rel.length,
  from: Int32Array = new Int32Array(n),
  to: Int32Array = new Int32Array(n),
): Int32Array {
  if (words.byteLength < 8 * n) words = new ArrayBuffer(16 * n);
  const f64 = new Float64Array(words, 0, n);
  const u32 = new Uint32Array(words, 0, 2 * n);
  const mask = 2 ** Math.max(1, 32 - Math.clz32(n - 1)) - 1; // ranks 0..n-1 fit in it
  // from: the position of each key rank; to: the rank of each position (little-endian words, as Node runs)
  let ascending = true;
  for (let j = 1; j < n && ascending; j++) ascending = key[j - 1] < key[j];
  for (let j = 0; j < n; j++) to[j] = from[j] = j;
  if (!ascending) {
    for (let j = 0; j < n; j++) f64[j] = key[j] * (mask + 1) + j; // exact: below 2^53
    f64.sort();
    for (let r = 0; r < n; r++) to[(from[r] = f64[r] % (mask + 1))] = r;
  }
  for (let j = 0; j < n; j++) {
    f64[j] = rel[j];
    // a negative double's bits sort in reverse already; a positive one's get the sign bit, then all flipped
    const flip = u32[2 * j + 1] >>> 31 === 1 ? 0 : 0xffffffff;
    u32[2 * j + 1] = (u32[2 * j + 1] | 0x80000000) ^ flip;
    u32[2 * j] = (((u32[2 * j] ^ flip) & ~mask) | to[j]) >>> 0;
  }
  new BigUint64Array(words, 0, n).sort();
  for (let r = 0; r < n; r++) to[r] = from[u32[2 * r] & mask];
  for (let i = 1; i < n; i++) {
    const x = to[i];
    let j = i - 1;
    for (; j >= 0 && (rel[x] > rel[to[j]] || (rel[x] === rel[to[j]] && key[x] < key[to[j]])); j--) to[j + 1] = to[j];
    to[j + 1] = x;
  }
  return to;
}
