import { describe, expect, it } from 'vitest';
import type { RewardBreakdown } from '@/server/engine/types';
import { efficiencyText } from './EfficiencyLine';

const b = (tEff: number, turns: number, tRef: number, rEff: number) =>
  ({ tEff, turns, tRef, tMax: 8, rEff }) as unknown as RewardBreakdown;

describe('the r_eff line', () => {
  it('states the formula with its numbers', () => {
    expect(efficiencyText(b(3, 4, 4, -1 / 3))).toBe('3 of 4 turns counted → r_eff = 1 − 2·2/3 = −0.333  (T_ref = 4)');
  });

  it('marks a clipped value', () => {
    expect(efficiencyText(b(6, 6, 4, -1))).toBe(
      '6 of 6 turns counted → r_eff = 1 − 2·5/3 = −1.000 (clipped)  (T_ref = 4)',
    );
  });

  it("names an imported breakdown's own r_eff instead of a wrong equation", () => {
    expect(efficiencyText(b(2, 2, 4, -1 / 3))).toBe(
      '2 of 2 turns counted → r_eff = 1 − 2·1/3 = +0.333; recorded r_eff −0.333 (other rules)  (T_ref = 4)',
    );
  });
});
