// Seeking in a posting list (sorted doc ids in a typed array), shared by the query algorithms.

/** First position in [p, e) whose doc is ≥ target (galloping, then binary search). */
export function seek(docs: Uint32Array, p: number, e: number, target: number): number {
  let step = 1;
  let lo = p;
  let hi = p + 1;
  while (hi < e && docs[hi] < target) {
    lo = hi;
    step <<= 1;
    hi = p + step;
  }
  if (hi > e) hi = e;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
