// The teeth verdict: a change counts only beyond 2 SE in the axis's harder direction, which is
// down for the budgets (a larger turn or tool budget cannot make a task harder).
import { describe, expect, it } from 'vitest';
import { bites, difference, rowBites, teethVerdict, type TeethRow } from './axes-teeth';

const none = { delta: 0, se: 0.01 };
const row = (axis: TeethRow['axis'], env: TeethRow['env'], raisedPass = none): TeethRow => ({
  axis,
  env,
  raisedPass,
  raisedReward: none,
  knockedPass: none,
  knockedReward: none,
});

describe('axes-teeth verdict', () => {
  it('a drop beyond 2 SE bites; within 2 SE or upwards it does not', () => {
    expect(bites({ delta: -0.1, se: 0.04 }, 'p_noise')).toBe(true);
    expect(bites({ delta: -0.07, se: 0.04 }, 'p_noise')).toBe(false);
    expect(bites({ delta: 0.1, se: 0.04 }, 'p_noise')).toBe(false);
  });
  it('a budget bites the other way: raising it helps beyond 2 SE, so its lower value is the harder one', () => {
    expect(bites({ delta: 0.1, se: 0.04 }, 'B_tool')).toBe(true);
    expect(bites({ delta: -0.1, se: 0.04 }, 'B_tool')).toBe(false);
  });
  it('names the toothless axes and the envs hearing fewer than two', () => {
    const rows = [
      row('p_noise', 'PD', { delta: -0.2, se: 0.05 }),
      row('m', 'PD', { delta: -0.2, se: 0.05 }),
      row('p_noise', 'SUB', { delta: -0.2, se: 0.05 }),
      row('B_tool', 'SUB', { delta: -0.2, se: 0.05 }),
    ];
    expect(rows.map(rowBites)).toEqual([true, true, true, false]);
    expect(teethVerdict(rows)).toEqual({ toothless: ['B_tool'], deaf: ['SUB'] });
  });
  it('the unpaired standard error adds both arms’ variances', () => {
    const c = difference({ mean: 0.5, variance: 0.25, n: 100 }, { mean: 0.7, variance: 0.21, n: 100 });
    expect(c.delta).toBeCloseTo(-0.2, 12);
    expect(c.se).toBeCloseTo(Math.sqrt(0.0046), 12);
  });
});
