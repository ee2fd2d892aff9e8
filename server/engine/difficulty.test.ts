import { describe, expect, it } from 'vitest';
import { AXES, axesFor } from './difficulty';

// Expected values computed by hand from the SPEC §6 table (σ evaluated to 8 digits).
const TABLE: Record<number, Record<string, number>> = {
  0: { m: 2, k_rec: 3, T_max: 4, p_missing: 0.09536234, p_noise: 0, p_switch: 0.04551491, top_k: 200, eps_rank: 0, p_oos: 0, H_orders: 1, B_branch: 1, B_tool: 1 },
  3: { m: 3, k_rec: 4, T_max: 5, p_missing: 0.4, p_noise: 0.03, p_switch: 0.16136485, top_k: 170, eps_rank: 0.06, p_oos: 0.15, H_orders: 2, B_branch: 2, B_tool: 2 },
  6: { m: 5, k_rec: 5, T_max: 7, p_missing: 0.70463766, p_noise: 0.06, p_switch: 0.3734756, top_k: 140, eps_rank: 0.12, p_oos: 0.3, H_orders: 4, B_branch: 3, B_tool: 4 },
  9: { m: 6, k_rec: 6, T_max: 8, p_missing: 0.78561103, p_noise: 0.09, p_switch: 0.52847825, top_k: 110, eps_rank: 0.18, p_oos: 0.45, H_orders: 5, B_branch: 4, B_tool: 5 },
  12: { m: 8, k_rec: 7, T_max: 10, p_missing: 0.7980219, p_noise: 0.12, p_switch: 0.58241266, top_k: 80, eps_rank: 0.24, p_oos: 0.5, H_orders: 7, B_branch: 5, B_tool: 7 },
};

describe('difficulty axes', () => {
  for (const [d, expected] of Object.entries(TABLE)) {
    it(`match the SPEC table at d = ${d}`, () => {
      const axes = axesFor(Number(d));
      expect(Object.keys(axes).sort()).toEqual(Object.keys(expected).sort());
      for (const [name, value] of Object.entries(expected)) expect(axes[name as keyof typeof axes], name).toBeCloseTo(value, 7);
    });
  }

  it('saturate where the SPEC caps them', () => {
    const far = axesFor(40);
    expect(far.k_rec).toBe(10);
    expect(far.top_k).toBe(20);
    expect(far.eps_rank).toBe(0.4);
    expect(far.p_oos).toBe(0.5);
    expect(far.p_noise).toBe(0.125);
  });

  it('apply per-axis overrides and keep the others', () => {
    const axes = axesFor(6, { B_tool: 1, eps_rank: 0 });
    expect(axes.B_tool).toBe(1);
    expect(axes.eps_rank).toBe(0);
    expect(axes.T_max).toBe(7);
  });

  it('reject bad overrides and bad d with a precise message', () => {
    expect(() => axesFor(2, { nope: 1 } as never)).toThrow(/unknown axis override "nope"/);
    expect(() => axesFor(2, { p_oos: 1.5 })).toThrow(/probability and must be ≤ 1/);
    expect(() => axesFor(2, { T_max: 2.5 })).toThrow(/must be an integer/);
    expect(() => axesFor(2, { T_max: 0 })).toThrow(/must be ≥ 1/);
    expect(() => axesFor(-1)).toThrow(/integer ≥ 0/);
    expect(() => axesFor(1.5)).toThrow(/integer ≥ 0/);
  });

  it('lists twelve axes with unique names', () => {
    expect(new Set(AXES.map((a) => a.name)).size).toBe(12);
  });
});
