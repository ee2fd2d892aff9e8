import { describe, expect, it } from 'vitest';
import { AXES, AXIS_RANGES, axesFor, D_RANGE, difficultyError, overrideError } from './difficulty';

// Expected values computed by hand from the SPEC §6 table (σ evaluated to 8 digits).
const TABLE: Record<number, Record<string, number>> = {
  0: {
    m: 2,
    k_rec: 3,
    T_max: 4,
    p_missing: 0.09536234,
    p_noise: 0,
    p_switch: 0.04551491,
    top_k: 20,
    eps_rank: 0,
    p_oos: 0,
    H_orders: 1,
    B_branch: 1,
    B_tool: 1,
  },
  3: {
    m: 3,
    k_rec: 4,
    T_max: 5,
    p_missing: 0.4,
    p_noise: 0.03,
    p_switch: 0.16136485,
    top_k: 17,
    eps_rank: 0.06,
    p_oos: 0.15,
    H_orders: 2,
    B_branch: 2,
    B_tool: 2,
  },
  6: {
    m: 5,
    k_rec: 5,
    T_max: 7,
    p_missing: 0.70463766,
    p_noise: 0.06,
    p_switch: 0.3734756,
    top_k: 13,
    eps_rank: 0.12,
    p_oos: 0.3,
    H_orders: 4,
    B_branch: 3,
    B_tool: 4,
  },
  9: {
    m: 6,
    k_rec: 6,
    T_max: 8,
    p_missing: 0.78561103,
    p_noise: 0.09,
    p_switch: 0.52847825,
    top_k: 9,
    eps_rank: 0.18,
    p_oos: 0.45,
    H_orders: 5,
    B_branch: 4,
    B_tool: 5,
  },
  12: {
    m: 8,
    k_rec: 7,
    T_max: 10,
    p_missing: 0.7980219,
    p_noise: 0.12,
    p_switch: 0.58241266,
    top_k: 5,
    eps_rank: 0.24,
    p_oos: 0.5,
    H_orders: 7,
    B_branch: 5,
    B_tool: 7,
  },
};

describe('difficulty axes', () => {
  for (const [d, expected] of Object.entries(TABLE)) {
    it(`match the SPEC table at d = ${d}`, () => {
      const axes = axesFor(Number(d));
      expect(Object.keys(axes).sort()).toEqual(Object.keys(expected).sort());
      for (const [name, value] of Object.entries(expected))
        expect(axes[name as keyof typeof axes], name).toBeCloseTo(value, 7);
    });
  }

  it('saturate where the SPEC caps them', () => {
    const far = axesFor(D_RANGE.max);
    expect(far.k_rec).toBe(10);
    expect(far.top_k).toBe(5);
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

  it('reject bad overrides and bad d with one precise message', () => {
    expect(() => axesFor(2, { nope: 1 } as never)).toThrow(/^unknown axis override "nope"; axes are m, k_rec/);
    expect(() => axesFor(2, { p_oos: 1.5 })).toThrow(
      'axis override p_oos (out-of-stock chance) must be a number from 0 to 1, got 1.5',
    );
    expect(() => axesFor(2, { T_max: 2.5 })).toThrow(
      'axis override T_max (turn budget) must be an integer from 1 to 100, got 2.5',
    );
    expect(() => axesFor(2, { H_orders: 0 })).toThrow(
      'axis override H_orders (order-history size) must be an integer from 1 to 25, got 0',
    );
    expect(() => axesFor(2, { k_rec: 0 })).toThrow(
      'axis override k_rec (items to recommend) must be an integer from 1 to 10, got 0',
    );
    expect(() => axesFor(2, { top_k: 1e9 })).toThrow(
      'axis override top_k (retrieval depth cap) must be an integer from 1 to 200, got 1000000000',
    );
    expect(() => axesFor(2, { B_tool: 100 })).toThrow(
      'axis override B_tool (tool calls per turn) must be an integer from 1 to 20, got 100',
    );
    expect(() => axesFor(2, { eps_rank: Number.NaN })).toThrow(
      'axis override eps_rank (retrieval noise) must be a number from 0 to 1, got NaN',
    );
    expect(() => axesFor(2, { m: '3' as never })).toThrow(
      'axis override m (constraints) must be an integer from 1 to 20, got "3"',
    );
    expect(() => axesFor(2, [] as never)).toThrow('axis overrides must be an object of axis values, got a list');
    expect(() => axesFor(-1)).toThrow('difficulty d must be an integer from 0 to 30, got -1');
    expect(() => axesFor(1.5)).toThrow('difficulty d must be an integer from 0 to 30, got 1.5');
    expect(() => axesFor(31)).toThrow('difficulty d must be an integer from 0 to 30, got 31');
    expect(() => axesFor(280)).toThrow(/got 280$/);
    expect(() => axesFor(Number.POSITIVE_INFINITY)).toThrow(/got Infinity$/);
  });

  it('keep every formula inside its axis range over the whole supported d range', () => {
    for (let d = D_RANGE.min; d <= D_RANGE.max; d++)
      for (const axis of AXES) {
        const v = axis.compute(d);
        expect(v, `${axis.name} at d = ${d}`).toBeGreaterThanOrEqual(axis.min);
        expect(v, `${axis.name} at d = ${d}`).toBeLessThanOrEqual(axis.max);
        expect(overrideError(axis.name, v)).toBeNull();
      }
  });

  it('export the same ranges by name for the web layer', () => {
    for (const axis of AXES)
      expect(AXIS_RANGES[axis.name]).toEqual({ min: axis.min, max: axis.max, integer: axis.integer });
    expect(difficultyError(12)).toBeNull();
    expect(difficultyError('3')).toBe('difficulty d must be an integer from 0 to 30, got "3"');
  });

  it('lists twelve axes with unique names', () => {
    expect(new Set(AXES.map((a) => a.name)).size).toBe(12);
  });
});
