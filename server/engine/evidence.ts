// How the verifiers write evidence (round 11): numbers with a real minus sign, negative factors
// in parentheses ("0.45·(−1)"), the verdict line of each env ("… → fail: <why>") and each line's
// role, so "Why it failed" can put the decisive line first (decisiveFirst).
//
// The ✓ of a line (`ok`) means the part it states cannot be a reason for a fail: a verdict
// line's ✓ is the env's pass itself (IsCorrect), a component line's ✓ means the component lost
// nothing (r_rank at 1, F1 = 1, …; RETURN's r_rep: the replacement passes on its own), an item
// line's ✓ means the item earned its part.

import type { EvidenceItem, EvidenceRole } from './types';

const MINUS = '\u2212';

/**
 * A number as evidence prints it: rounded to 3 decimals (or fixed to `digits`), with "−" for a
 * negative value and no sign on a value that rounds to zero.
 */
export function num(x: number, digits?: number): string {
  const text = digits === undefined ? (Math.round(x * 1000) / 1000).toString() : x.toFixed(digits);
  if (!text.startsWith('-')) return text;
  const magnitude = text.slice(1);
  return /[1-9]/.test(magnitude) ? `${MINUS}${magnitude}` : magnitude;
}

/** A number exactly as given (an answer's own figure), with "−" for a negative one. */
export function exact(x: number): string {
  return x < 0 ? `${MINUS}${-x}` : String(x);
}

/** A number used as a factor of a product: a negative one in parentheses, "0.45·(−1)". */
export function factor(x: number, digits?: number): string {
  const text = num(x, digits);
  return text.startsWith(MINUS) ? `(${text})` : text;
}

/** " → pass", or " → fail" with the reasons the pass rule failed ("… → fail: r_sel = −1"). */
export function verdict(pass: boolean, reasons: readonly string[] = []): string {
  return pass ? ' → pass' : reasons.length ? ` → fail: ${reasons.join('; ')}` : ' → fail';
}

/** Sub-evidence shown under a parent (RETURN's replacement, JOURNEY's sub-tasks): prefixed and one level deeper. */
export function nested(items: readonly EvidenceItem[], prefix: string): EvidenceItem[] {
  return items.map((e) => Object.assign({}, e, { text: `${prefix}${e.text}`, depth: (e.depth ?? 0) + 1 }));
}

// Evidence stored before roles existed (round 10 and earlier): a line that derives a component
// ("… → r_rank = −1") or a sub-task verdict ("… (fail)") is a part; JOURNEY indented its
// sub-tasks' lines.
const legacyRole = (e: EvidenceItem): EvidenceRole | undefined =>
  e.text.includes('→') || e.text.includes('(fail)') ? 'part' : undefined;
const legacyDepth = (e: EvidenceItem) => (e.text.startsWith('  ') ? 1 : 0);

const ROLE_RANK: Record<EvidenceRole | 'detail', number> = { verdict: 0, part: 1, detail: 2 };

/**
 * Lines in the order that explains a fail: outer before nested, then verdicts, then
 * components, then per-item details; the engine's order within each group. Lines without a
 * role (older episodes) are ranked by their wording.
 */
export function decisiveFirst(items: readonly EvidenceItem[]): EvidenceItem[] {
  const hasRoles = items.some((e) => e.role !== undefined || e.depth !== undefined);
  const rank = (e: EvidenceItem) => {
    const role = hasRoles ? e.role : legacyRole(e);
    const depth = hasRoles ? (e.depth ?? 0) : legacyDepth(e);
    return depth * 10 + ROLE_RANK[role ?? 'detail'];
  };
  return items
    .map((e, i) => ({ e, i, r: rank(e) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.e);
}
