// The paired, interleaved loop the A/B scripts share (ab-engine, ab-reset, ab-mix): round r runs
// both versions on the same input, A first in even rounds and B first in odd ones, so both see the
// same machine load; the figure to quote is the median of the per-round ratios B/A.

/** `run(version, r)` gives version 'a' or 'b''s time in round r. */
export function pairedRounds(rounds, run) {
  const ta = [];
  const tb = [];
  const ratios = [];
  for (let r = 0; r < rounds; r++) {
    const t = {};
    for (const v of r % 2 ? ['b', 'a'] : ['a', 'b']) t[v] = run(v, r);
    ta.push(t.a);
    tb.push(t.b);
    ratios.push(t.b / t.a);
  }
  return { ta, tb, ratios };
}

/** The middle value; of an even count, the mean of the two middle ones (as bench-api-lib.ts). */
export function median(v) {
  const s = [...v].sort((x, y) => x - y);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
