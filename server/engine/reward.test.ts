import { describe, expect, it } from 'vitest';
import { computeReward, efficiency, hallucination } from './reward';
import { DEFAULT_WEIGHTS, type TaskResult } from './types';

const task = (rTask: number, isCorrect = rTask === 1): TaskResult => ({ rTask, isCorrect, metrics: {}, evidence: [] });
const seen = new Map([
  ['a', 1],
  ['b', 2],
]);
const base = {
  hardFail: null,
  task: task(1),
  turns: 1,
  replyActs: [null],
  tMax: 4,
  recommendedIds: ['a'],
  seen,
  weights: DEFAULT_WEIGHTS,
  answerTurn: 1,
};

describe('reward composition', () => {
  it('gives the 0.90 maximum for a perfect answer in one turn', () => {
    const r = computeReward(base);
    expect(r.rEff).toBe(1);
    expect(r.rHall).toBe(0);
    expect(r.total).toBeCloseTo(0.9, 12);
    expect(r.isCorrect).toBe(true);
  });

  it('discounts confirm and clarify turns from T_eff', () => {
    // 4 turns, T_max 7; replies: clarify, continue, confirm → T_user 2, T_eff 2
    const e = efficiency(4, ['clarify', 'continue', 'confirm', null], 7);
    expect(e).toEqual({ tUser: 2, tEff: 2, rEff: 1 - 2 / 6 });
    // correct / elaborate / continue replies do count
    expect(efficiency(3, ['correct', 'elaborate', null], 4).tEff).toBe(3);
    // r_eff = 1 − 2·(3−1)/(4−1) = −1/3
    expect(efficiency(3, ['correct', 'elaborate', null], 4).rEff).toBeCloseTo(-1 / 3, 12);
  });

  it('clips r_eff at −1 for long episodes', () => {
    expect(efficiency(10, Array(10).fill('continue'), 4).rEff).toBe(-1);
  });

  it('computes the hallucination share over distinct recommended ids', () => {
    expect(hallucination(['a', 'x', 'y', 'a'], seen)).toEqual({ hallucinated: ['x', 'y'], rHall: -2 / 3 });
    expect(hallucination([], seen).rHall).toBe(0);
  });

  it('combines the parts with the weights: 0.75·r_task + 0.15·r_eff + 0.10·r_hall', () => {
    // r_task 0.2, 2 turns with a "continue" reply (T_eff 2, T_max 4 → r_eff 1/3), 1 of 2 ids unseen
    const r = computeReward({ ...base, task: task(0.2), turns: 2, replyActs: ['continue', null], recommendedIds: ['a', 'z'] });
    expect(r.rEff).toBeCloseTo(1 / 3, 12);
    expect(r.rHall).toBe(-0.5);
    expect(r.total).toBeCloseTo(0.75 * 0.2 + 0.15 / 3 - 0.05, 12);
    expect(r.hallucinatedIds).toEqual(['z']);
  });

  it('scores r_task −1 when no answer was given', () => {
    const r = computeReward({ ...base, task: null, recommendedIds: [] });
    expect(r.rTask).toBe(-1);
    expect(r.total).toBeCloseTo(-0.75 + 0.15, 12);
    expect(r.isCorrect).toBe(false);
  });

  for (const hardFail of ['format_invalid', 'tool_invalid', 'safety_violation'] as const) {
    it(`is −1 on ${hardFail}, whatever the task score`, () => {
      const r = computeReward({ ...base, hardFail });
      expect(r.total).toBe(-1);
      expect(r.isCorrect).toBe(false);
    });
  }

  it('uses the weights it is given and records them', () => {
    const weights = { task: 1, eff: 0, hall: 0 };
    const r = computeReward({ ...base, task: task(0.4), weights });
    expect(r.total).toBeCloseTo(0.4, 12);
    expect(r.weights).toEqual(weights);
  });

  it('links efficiency evidence to turns', () => {
    const r = computeReward({ ...base, turns: 2, replyActs: ['confirm', null] });
    expect(r.evidence.eff.map((e) => [e.turns, e.ok])).toEqual([
      [[1], true],
      [[2], false],
    ]);
  });
});
