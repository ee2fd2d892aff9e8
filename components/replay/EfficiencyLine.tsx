// The efficiency term with its numbers, e.g. "3 of 4 turns counted → r_eff = 1 − 2·2/3 = −0.333".
// The reference turn count is read from the breakdown (tRef under SPEC §8 rev. 2; older
// breakdowns normalise by T_max).
import type { RewardBreakdown } from '@/server/engine/types';
import { fmtReward } from '@/lib/format';

export function efficiencyText(b: RewardBreakdown): string {
  const ref = (b as RewardBreakdown & { tRef?: number }).tRef;
  const refName = ref !== undefined ? 'T_ref' : 'T_max';
  const r = ref ?? b.tMax;
  const counted = `${b.tEff} of ${b.turns} turn${b.turns === 1 ? '' : 's'} counted`;
  if (r <= 1) return `${counted} → r_eff = ${fmtReward(b.rEff)} (${refName} = ${r})`;
  const formula = 1 - (2 * (b.tEff - 1)) / (r - 1);
  const value = Math.max(-1, Math.min(1, formula));
  const clipped = Math.abs(formula - value) > 1e-9 ? ' (clipped)' : '';
  // an imported breakdown may carry another engine's r_eff: say so instead of a wrong equation
  const recorded = Math.abs(value - b.rEff) > 1e-9 ? `; recorded r_eff ${fmtReward(b.rEff)} (other rules)` : '';
  return `${counted} → r_eff = 1 − 2·${b.tEff - 1}/${r - 1} = ${fmtReward(value)}${clipped}${recorded}  (${refName} = ${r})`;
}

export function EfficiencyLine({ breakdown }: { breakdown: RewardBreakdown }) {
  return (
    <p
      className="rounded-md bg-emerald-50 px-3 py-1.5 font-mono text-xs text-emerald-900"
      data-testid="efficiency-line"
    >
      {efficiencyText(breakdown)}
    </p>
  );
}
