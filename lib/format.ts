// Small display helpers shared by pages and components.

// A real minus sign, as the engine's evidence prints it ("−1.000", not "-1.000"): a hyphen
// before a figure reads as a dash in proportional fonts.
const MINUS = '\u2212';

/** `text` (a toFixed result) with "−" for a negative value and no sign on one that rounds to zero. */
function signed(text: string): string {
  if (!text.startsWith('-')) return text;
  const magnitude = text.slice(1);
  return /[1-9]/.test(magnitude) ? MINUS + magnitude : magnitude;
}

/** A reward: always signed, "+0.850", "−1.000", "+0.000" for a value that rounds to zero. */
export function fmtReward(r: number | null | undefined): string {
  if (r === null || r === undefined) return '—';
  const text = signed(r.toFixed(3));
  return text.startsWith(MINUS) ? text : `+${text}`;
}

export function fmtPrice(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  return `$${p.toFixed(2)}`;
}

/** `v` fixed to `digits` decimals, with a real minus: chart labels, scores. */
export function fmtFixed(v: number, digits = 3): string {
  return signed(v.toFixed(digits));
}

export function fmtNumber(v: number, integer = false): string {
  if (integer || Number.isInteger(v)) return signed(String(v));
  return signed(v.toFixed(3).replace(/0+$/, '').replace(/\.$/, ''));
}

export function fmtDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

export const TERMINATION_LABELS: Record<string, string> = {
  answered: 'answered',
  turn_budget: 'turn budget used up',
  user_quit: 'customer quit',
  format_invalid: 'invalid action format',
  tool_invalid: 'tool error in final turn',
  safety_violation: 'safety violation',
  aborted: 'aborted',
};

export function fmtTermination(reason: string | null | undefined): string {
  if (!reason) return '—';
  return TERMINATION_LABELS[reason] ?? reason;
}
