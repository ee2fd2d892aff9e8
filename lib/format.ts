// Small display helpers shared by pages and components. Numbers print as the engine's evidence
// prints them (evidence.ts): a real minus ("−1.000"), no sign on a value that rounds to zero.

import { exact, num } from '@/server/engine/evidence';

/** A reward: always signed, "+0.850", "−1.000", "+0.000" for a value that rounds to zero. */
export function fmtReward(r: number | null | undefined): string {
  if (r === null || r === undefined) return '—';
  const text = num(r, 3);
  return /^\d/.test(text) ? `+${text}` : text;
}

export function fmtPrice(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  return `$${p.toFixed(2)}`;
}

/** `v` fixed to `digits` decimals, with a real minus: chart labels, scores. */
export function fmtFixed(v: number, digits = 3): string {
  return num(v, digits);
}

export function fmtNumber(v: number, integer = false): string {
  if (integer || Number.isInteger(v)) return exact(v);
  return num(v, 3).replace(/0+$/, '').replace(/\.$/, '');
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
