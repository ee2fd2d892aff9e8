import { describe, expect, it } from 'vitest';
import { capInvention, computeReward, efficiency, hallucination, REWARD_REVISION } from './reward';
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
  workedTurns: [true],
  tMax: 4,
  nSub: 1,
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

  it('discounts confirm turns, and clarify turns without tool work, from T_eff (T_ref = 4)', () => {
    // 4 turns; replies clarify (no tool), continue, confirm → T_user 2, T_eff 2, r_eff = 1 − 2·1/3
    const e = efficiency(4, ['clarify', 'continue', 'confirm', null], [false, true, true, true]);
    expect(e).toEqual({ tUser: 2, tEff: 2, tRef: 4, rEff: 1 - 2 / 3 });
    // correct / elaborate / continue replies do count: r_eff = 1 − 2·(3−1)/(4−1) = −1/3
    expect(efficiency(3, ['correct', 'elaborate', null], [true, true, true]).tEff).toBe(3);
    expect(efficiency(3, ['correct', 'elaborate', null], [true, true, true]).rEff).toBeCloseTo(-1 / 3, 12);
  });

  it('counts a clarify turn that also made a successful tool call (a working turn)', () => {
    // turn 1 asked and searched → counted; turn 2 only asked → free; T_eff = 3 − 1 = 2
    const e = efficiency(3, ['clarify', 'clarify', null], [true, false, true]);
    expect(e.tUser).toBe(1);
    expect(e.tEff).toBe(2);
    expect(e.rEff).toBeCloseTo(1 / 3, 12);
  });

  it('normalises by the fixed T_ref = 4·n_sub, whatever the turn limit', () => {
    // 3 working turns: r_eff = 1 − 2·2/3 = −1/3 at T_max 4 and at T_max 10 alike
    const r4 = computeReward({
      ...base,
      turns: 3,
      replyActs: ['continue', 'continue', null],
      workedTurns: [true, true, true],
      tMax: 4,
    });
    const r10 = computeReward({
      ...base,
      turns: 3,
      replyActs: ['continue', 'continue', null],
      workedTurns: [true, true, true],
      tMax: 10,
    });
    expect(r4.rEff).toBeCloseTo(-1 / 3, 12);
    expect(r10.rEff).toBeCloseTo(-1 / 3, 12);
    expect(r10.tRef).toBe(4);
    // a JOURNEY of 3 sub-tasks: T_ref = 12; 5 working turns → r_eff = 1 − 2·4/11
    const j = computeReward({
      ...base,
      turns: 5,
      replyActs: Array(5).fill('continue'),
      workedTurns: Array(5).fill(true),
      nSub: 3,
      tMax: 12,
    });
    expect(j.tRef).toBe(12);
    expect(j.rEff).toBeCloseTo(1 - 8 / 11, 12);
  });

  it('records the reward revision', () => {
    expect(REWARD_REVISION).toBe(3);
    expect(computeReward(base).revision).toBe(3);
  });

  it('is not a pass when a recommended id was never retrieved, even with a perfect r_task', () => {
    const r = computeReward({ ...base, recommendedIds: ['a', 'zz'] });
    expect(r.rHall).toBe(-0.5);
    expect(r.isCorrect).toBe(false);
  });

  it('computes the hallucination share over distinct recommended ids', () => {
    expect(hallucination(['a', 'x', 'y', 'a'], seen)).toEqual({ hallucinated: ['x', 'y'], rHall: -2 / 3 });
    expect(hallucination([], seen).rHall).toBe(0);
  });

  it('combines the parts with the weights: 0.75·r_task + 0.15·r_eff + 0.10·r_hall', () => {
    // r_task 0.2, 2 turns with a "continue" reply (T_eff 2, T_ref 4 → r_eff 1/3), both ids seen
    const r = computeReward({
      ...base,
      task: task(0.2),
      turns: 2,
      replyActs: ['continue', null],
      workedTurns: [true, true],
      recommendedIds: ['a', 'b'],
    });
    expect(r.rEff).toBeCloseTo(1 / 3, 12);
    expect(r.rHall).toBe(0);
    expect(r.total).toBeCloseTo(0.75 * 0.2 + 0.15 / 3, 12);
  });

  it('scores r_task −1 when no answer was given, with no efficiency bonus: −0.75 (rev 3)', () => {
    const r = computeReward({ ...base, task: null, recommendedIds: [] });
    expect(r.rTask).toBe(-1);
    expect(r.rEff).toBe(0);
    expect(r.total).toBeCloseTo(-0.75, 12);
    expect(r.isCorrect).toBe(false);
  });

  it('gives no efficiency bonus without progress, but keeps its penalty (rev 3)', () => {
    // an empty one-turn answer: r_task −1, r_eff would be +1 → counts 0 → −0.75 (rev 2: −0.60)
    const empty = computeReward({ ...base, task: task(-1), recommendedIds: [] });
    expect(empty.total).toBeCloseTo(-0.75, 12);
    expect(empty.evidence.eff.at(-1)?.text).toContain('no efficiency bonus without progress');
    // r_task exactly 0 is no progress either
    expect(computeReward({ ...base, task: task(0), recommendedIds: [] }).total).toBeCloseTo(0, 12);
    // 4 working turns (T_eff 4 → r_eff −1) with r_task −0.5: the penalty stays, −0.375 − 0.15
    const slow = computeReward({
      ...base,
      task: task(-0.5),
      turns: 4,
      replyActs: ['continue', 'continue', 'continue', null],
      workedTurns: [true, true, true, true],
      recommendedIds: [],
    });
    expect(slow.rEff).toBe(-1);
    expect(slow.total).toBeCloseTo(-0.375 - 0.15, 12);
    // with progress the bonus counts as before: r_task 0.4 in one turn → 0.3 + 0.15
    expect(computeReward({ ...base, task: task(0.4) }).total).toBeCloseTo(0.45, 12);
  });

  it('caps r_task at 0 when the answer names a never-retrieved id (rev 3 invention)', () => {
    const capped = capInvention(task(1, true), ['a', 'zz'], seen, 3);
    expect(capped).toMatchObject({ rTask: 0, isCorrect: false });
    expect(capped.evidence.at(-1)).toEqual({
      text: '1 id(s) were never retrieved (zz): r_task = min(1.000, 0) = 0.000 → fail: an answer with invented ids does not pass',
      turns: [3],
      ok: false,
      role: 'verdict',
    });
    // a perfect list of 2 ids, neither retrieved: r_task 1 → 0, r_eff +1 → 0, r_hall −1 → −0.10
    const invented = computeReward({
      ...base,
      task: capInvention(task(1), ['x', 'y'], seen, 1),
      recommendedIds: ['x', 'y'],
    });
    expect(invented.rTask).toBe(0);
    expect(invented.rHall).toBe(-1);
    expect(invented.total).toBeCloseTo(-0.1, 12);
    expect(invented.isCorrect).toBe(false);
    // a negative r_task is left as it is; a list of seen ids is left alone (the same object)
    expect(capInvention(task(-0.6), ['z'], seen, 1).rTask).toBe(-0.6);
    const clean = task(1);
    expect(capInvention(clean, ['a', 'b'], seen, 1)).toBe(clean);
  });

  it('uses the weights it is given and records them', () => {
    const weights = { task: 1, eff: 0, hall: 0 };
    const r = computeReward({ ...base, task: task(0.4), weights });
    expect(r.total).toBeCloseTo(0.4, 12);
    expect(r.weights).toEqual(weights);
  });

  it('links efficiency evidence to turns', () => {
    const r = computeReward({
      ...base,
      turns: 3,
      replyActs: ['confirm', 'clarify', null],
      workedTurns: [true, true, false],
    });
    expect(r.evidence.eff.slice(0, 3).map((e) => [e.turns, e.ok])).toEqual([
      [[1], true],
      [[2], false],
      [[3], false],
    ]);
    expect(r.evidence.eff[1].text).toContain('also did tool work');
    expect(r.evidence.eff[3].text).toContain('T_ref = 4·1 = 4');
  });
});
