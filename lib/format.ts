// Small display helpers shared by pages and components.

export function fmtReward(r: number | null | undefined): string {
  if (r === null || r === undefined) return '—';
  return (r >= 0 ? '+' : '') + r.toFixed(3);
}

export function fmtPrice(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  return `$${p.toFixed(2)}`;
}

export function fmtNumber(v: number, integer = false): string {
  if (integer || Number.isInteger(v)) return String(v);
  return v.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
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
