// The formula re-score of imported traces follows reward revision 3 (SPEC §8): invention caps
// r_task at 0, and there is no efficiency bonus without progress.
import { describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS } from '@/server/engine/types';
import { rescoreByFormula, type FormulaInput } from './rescore';

const base: FormulaInput = {
  hardFail: false,
  rTask: 1,
  verdict: true,
  turns: 1,
  replyActs: [null],
  okToolCalls: [1],
  nSub: 1,
  recommended: ['a'],
  seen: new Set(['a']),
  weights: DEFAULT_WEIGHTS,
};

describe('rescoreByFormula (revision 3)', () => {
  it('a perfect one-turn answer keeps 0.90', () => {
    expect(rescoreByFormula(base, null).reward).toBeCloseTo(0.9, 12);
  });

  it('a never-retrieved id caps r_task at 0 and drops the efficiency bonus: 0 + 0 − 0.05', () => {
    const r = rescoreByFormula({ ...base, recommended: ['a', 'z'] }, null);
    expect(r.parts).toMatchObject({ rTask: 0, rEff: 0, rHall: -0.5, isCorrect: false });
    expect(r.reward).toBeCloseTo(-0.05, 12);
    expect(r.note).toContain('capped at 0: 1 id(s) never retrieved');
  });

  it('an empty one-turn answer scores −0.75', () => {
    expect(rescoreByFormula({ ...base, rTask: -1, verdict: false, recommended: [] }, null).reward).toBeCloseTo(
      -0.75,
      12,
    );
  });
});
