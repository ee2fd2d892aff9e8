import { describe, expect, it } from 'vitest';
import { listEnvs } from '@/server/engine';
import type { EnvId, EvidenceItem, RewardBreakdown } from '@/server/engine/types';
import { failureReasons, MAX_REASONS } from './pass-rules';

const ruleOf = (envId: EnvId) => listEnvs().find((e) => e.id === envId)!.passRule;

const item = (text: string, ok: boolean, turns: number[] = []): EvidenceItem => ({ text, ok, turns });

function breakdown(isCorrect: boolean, task: EvidenceItem[], hall: EvidenceItem[] = []): RewardBreakdown {
  return {
    revision: 2,
    total: 0.7,
    preClip: 0.7,
    rTask: 0.952,
    rEff: -0.333,
    rHall: 0,
    weights: { task: 0.75, eff: 0.15, hall: 0.1 },
    isCorrect,
    hardFail: null,
    turns: 3,
    tUser: 0,
    tEff: 3,
    tMax: 4,
    tRef: 4,
    recommendedIds: [],
    hallucinatedIds: [],
    task: { rTask: 0.952, isCorrect, metrics: {}, evidence: task },
    evidence: { task, eff: [item('turn 1: customer replied "continue" → counted', false, [1])], hall },
  };
}

describe('failureReasons', () => {
  it('says nothing for a passed episode', () => {
    expect(failureReasons(ruleOf('PD'), breakdown(true, [item('x → r_rank = 1', true)]), 'answered')).toBeNull();
  });

  it('explains a RETURN stored before round 11 (r_task 0.952, replacement failed, no roles)', () => {
    // The shape the RETURN verifier wrote then: the total line ok (≥ 0.95), the replacement's not.
    const task = [
      item('selected ORD-1 / ORD-1-L3; the item is ORD-1 / ORD-1-L3 → r_sel = 1', true, [3]),
      item('replacement: #1 syn_9 "Screwdriver": s = 1; out of stock', false, [1]),
      item('replacement: nDCG@4 = 0.611 → r_rank = 0.223', false),
      item('replacement: r_task = 0.55·r_rank + 0.35·r_cons + 0.1·r_oos = 0.522 (pass ≥ 0.95)', false),
      item('r_task = 0.45·1 + 0.45·1 + 0.10·0.522 = 0.952', true),
    ];
    const why = failureReasons(ruleOf('RETURN'), breakdown(false, task), 'answered')!;
    // the engine's sentence, as it states it
    expect(why.rule).toBe(ruleOf('RETURN'));
    expect(why.rule).toContain('r_task ≥ 0.95 alone is not enough');
    expect(why.rule).toContain('r_hall = 0');
    expect(why.ended).toBeNull();
    expect(why.hardFail).toBeNull();
    // derivations first, then the per-product line; eff lines and ok lines never
    expect(why.reasons.map((e) => e.text)).toEqual([task[2].text, task[1].text, task[3].text]);
    expect(why.more).toBe(0);
  });

  it('puts a JOURNEY sub-task verdict first, then the outer lines, then the nested (no roles stored)', () => {
    const task = [
      item('  sub-task 1 (PD): #1 syn_1 "Lamp": s = 0.5', false, [2]),
      item('sub-task 1 (PD): r_task 0.400 (fail)', false, [2]),
    ];
    const hall = [item('syn_7 was never retrieved', false, [2])];
    const why = failureReasons(ruleOf('JOURNEY'), breakdown(false, task, hall), 'answered')!;
    expect(why.reasons.map((e) => e.text)).toEqual([task[1].text, hall[0].text, task[0].text]);
  });

  it("round 11: the engine's RETURN evidence leads with its verdict, then r_rep, then the replacement", () => {
    const task: EvidenceItem[] = [
      { ...item('selected ORD-1 / ORD-1-L3; the item is ORD-1 / ORD-1-L3 → r_sel = 1', true, [3]), role: 'part' },
      { ...item('replacement: #2 syn_9 "Screwdriver": s = 1; out of stock', false, [1]), depth: 1 },
      { ...item('replacement: nDCG@2 = 0.613 → r_rank = 0.226', false), role: 'part', depth: 1 },
      { ...item('replacement: r_task = … = 0.574 (pass ≥ 0.95) → fail', false), role: 'verdict', depth: 1 },
      {
        ...item('the replacement does not pass on its own (its r_task 0.574 < 0.95) → r_rep = 0.574', false),
        role: 'part',
      },
      {
        ...item('r_task = … = 0.957 → fail: the replacement does not pass on its own', false),
        role: 'verdict',
      },
    ];
    const why = failureReasons(ruleOf('RETURN'), breakdown(false, task), 'answered')!;
    expect(why.reasons.map((e) => e.text)).toEqual([task[5].text, task[4].text, task[3].text, task[2].text]);
    expect(why.more).toBe(1);
  });

  it('names a hard fail, which decides the reward whatever the evidence says', () => {
    const b = { ...breakdown(false, [item('x → r_rank = 1', true)]), hardFail: 'tool_invalid' as const };
    const why = failureReasons(ruleOf('CART'), b, 'answered')!;
    expect(why.hardFail).toBe('tool_invalid');
    expect(why.reasons).toEqual([]);
  });

  it('names how an unanswered episode ended and caps the list', () => {
    const task = Array.from({ length: MAX_REASONS + 3 }, (_, i) => item(`line ${i}`, false));
    const why = failureReasons(ruleOf('PD'), breakdown(false, task), 'user_quit')!;
    expect(why.ended).toBe('user_quit');
    expect(why.reasons).toHaveLength(MAX_REASONS);
    expect(why.reasons[0].text).toBe('line 0');
    expect(why.more).toBe(3);
  });
});
