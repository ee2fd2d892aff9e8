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

/**
 * The positions 0..n-1 ordered by rel descending, then key ascending (keys distinct): a merge
 * sort with the comparison written out, which for the pool's 500 entries costs a fraction of
 * Array.prototype.sort with a comparator function. n defaults to rel.length; `from` and `to` (at
 * least n entries; recommend-pool.ts's scratch) spare the two allocations. The order is in the
 * first n entries of the array returned (one of the two). (Insertion-sorted runs of 8 before the
 * merges measured ~15 % slower at n = 300: round 13.)
 */
export function orderByRelevance(
  rel: Float64Array,
  key: Float64Array,
  n: number = rel.length,
  from: Int32Array = new Int32Array(n),
  to: Int32Array = new Int32Array(n),
): Int32Array {
  for (let j = 0; j < n; j++) from[j] = j;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) {
        if (j >= hi) to[k] = from[i++];
        else if (i >= mid) to[k] = from[j++];
        else {
          const a = from[i];
          const b = from[j];
          // a first unless b is strictly better: equal (rel, key) cannot happen, keys are distinct
          to[k] = rel[b] > rel[a] || (rel[b] === rel[a] && key[b] < key[a]) ? from[j++] : from[i++];
        }
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
