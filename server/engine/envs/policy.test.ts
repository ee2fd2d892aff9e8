import { describe, expect, it } from 'vitest';
import { Episode } from '../episode';
import { testCatalog, verifyContext } from '../testing';
import type { Action } from '../types';
import { applicableRules, getPolicyRule, POLICY_RULES, type PolicyField } from '../world/policy-kb';
import { createWorld } from '../world/state';
import type { VerifyContext } from './types';
import { factPhrase, groundedAt, MAX_CLAUSES, numericScore, parseNumber, policyEnv, type PolicyGoal } from './policy';

const catalog = testCatalog();
// both rules retrieved at turn 1 (SPEC §8 rev 3: only a grounded answer can earn)
const ctx = verifyContext(catalog, createWorld('2026-01-01'), 4, {
  calls: [
    { turn: 1, name: 'policy.search', args: { query: 'free shipping minimum basic member' }, error: null },
    { turn: 1, name: 'policy.search', args: { query: 'standard delivery time', top_k: 20 }, error: null },
  ],
});
const numericGoal: PolicyGoal = {
  ruleId: 'SHP-01',
  topic: 'free_shipping_min',
  question: '?',
  facts: { member_tier: 'basic' },
  answerType: 'numeric',
  answer: 35,
};
const textGoal: PolicyGoal = {
  ruleId: 'SHP-05',
  topic: 'delivery_time',
  question: '?',
  facts: { shipping_speed: 'standard' },
  answerType: 'categorical',
  answer: '5-7 business days',
};
const score = (goal: PolicyGoal, policy_answer: unknown) =>
  policyEnv.verify(goal, null, { env: 'POLICY', done: true, policy_answer }, ctx);

describe('POLICY verifier, numeric: 2·(min/max)^4 − 1', () => {
  it('exact → 1 (pass); 34 vs 35 → 2·(34/35)^4 − 1 ≈ 0.781 (fail); 35.1 vs 35 passes', () => {
    expect(score(numericGoal, 35)).toMatchObject({ rTask: 1, isCorrect: true });
    const r = score(numericGoal, 34);
    expect(r.rTask).toBeCloseTo(2 * (34 / 35) ** 4 - 1, 12);
    expect(r.rTask).toBeCloseTo(0.7808, 3);
    expect(r.isCorrect).toBe(false);
    expect(score(numericGoal, 36).rTask).toBeCloseTo(2 * (35 / 36) ** 4 - 1, 12);
    const close = score(numericGoal, 35.1);
    expect(close.rTask).toBeCloseTo(2 * (35 / 35.1) ** 4 - 1, 12);
    expect(close.isCorrect).toBe(true);
  });

  it('numbers inside strings count: "$35.00", "35", "1,299.50"', () => {
    expect(score(numericGoal, '$35.00').rTask).toBe(1);
    expect(score(numericGoal, '35 dollars').rTask).toBe(1);
    expect(parseNumber('1,299.50')).toBe(1299.5);
    expect(parseNumber('fifteen')).toBeNull();
    expect(score(numericGoal, 'thirty-five').rTask).toBe(-1);
  });

  it('zero and negatives: 0 vs 0 → 1; 0 vs 35 → −1; 5 vs 0 → −1; −35 → −1', () => {
    expect(numericScore(0, 0)).toBe(1);
    expect(numericScore(0, 35)).toBe(-1);
    expect(numericScore(5, 0)).toBe(-1);
    expect(numericScore(-35, 35)).toBe(-1);
    expect(numericScore(null, 35)).toBe(-1);
    expect(score({ ...numericGoal, answer: 0 }, '$0.00').rTask).toBe(1);
  });
});

describe('POLICY verifier, categorical: ±1 after normalising case, whitespace and punctuation', () => {
  it('matches ignoring case, dashes, extra spaces and trailing punctuation', () => {
    expect(score(textGoal, '5-7 business days').rTask).toBe(1);
    expect(score(textGoal, '  5–7   Business DAYS. ').rTask).toBe(1);
    expect(score(textGoal, '5 to 7 business days').rTask).toBe(-1);
    expect(score(textGoal, '2-3 business days')).toMatchObject({ rTask: -1, isCorrect: false });
    expect(
      score({ ...textGoal, answer: 'replacement parts shipped free' }, 'Replacement parts, shipped free!').rTask,
    ).toBe(1);
  });
});

describe('POLICY grounding (SPEC §8 rev 3)', () => {
  const ungrounded = (calls: VerifyContext['calls']) => verifyContext(catalog, createWorld('2026-01-01'), 4, { calls });
  const answer = { env: 'POLICY', done: true, policy_answer: 35 };

  it('the calls above do retrieve both rules', () => {
    expect(groundedAt('SHP-01', ctx)).toBe(1);
    expect(groundedAt('SHP-05', ctx)).toBe(1);
  });

  it('a correct answer with no policy.search call fails with r_task 0', () => {
    const r = policyEnv.verify(numericGoal, null, answer, ungrounded([]));
    expect(r).toMatchObject({ rTask: 0, isCorrect: false });
    expect(r.evidence.map((e) => e.text).join('\n')).toContain('never appeared in a policy.search result');
  });

  it('a search that did not return the deciding rule, or that failed, does not ground it', () => {
    const otherTopic = { turn: 1, name: 'policy.search', args: { query: 'warranty electronics months' }, error: null };
    expect(groundedAt('SHP-01', { calls: [otherTopic] })).toBeNull();
    expect(policyEnv.verify(numericGoal, null, answer, ungrounded([otherTopic])).isCorrect).toBe(false);
    const failed = { turn: 1, name: 'policy.search', args: { query: 'free shipping basic' }, error: 'budget' };
    expect(policyEnv.verify(numericGoal, null, answer, ungrounded([failed])).rTask).toBe(0);
  });

  it('an ungrounded wrong answer keeps its negative score', () => {
    const r = policyEnv.verify(numericGoal, null, { ...answer, policy_answer: 10 }, ungrounded([]));
    expect(r.rTask).toBeCloseTo(2 * (10 / 35) ** 4 - 1, 12);
  });
});

describe('POLICY generator', () => {
  it('the rule has 1..B_branch clauses; with the distractors the customer states 3·B_branch + 1 facts (engine v4); the rule stays the one that applies', () => {
    for (let d = 0; d <= 14; d++)
      for (let seed = 0; seed < 12; seed++) {
        const e = new Episode({ envId: 'POLICY', d, seed, axisOverrides: { p_noise: 0, p_missing: 0 } }, catalog);
        const opening = e.reset().observation.customerMessage!;
        const goal = e.hiddenGoal().data as PolicyGoal;
        const rule = getPolicyRule(goal.ruleId)!;
        expect(rule.conditions.length).toBeGreaterThanOrEqual(1);
        expect(rule.conditions.length).toBeLessThanOrEqual(Math.min(e.axes.B_branch, MAX_CLAUSES));
        expect(goal.answer).toBe(rule.answer);
        const all = { ...goal.facts, ...goal.distractors };
        expect(applicableRules(goal.topic, all)[0]).toBe(rule);
        // all 12 fields cannot always be stated: some would make another rule apply
        expect(Object.keys(all).length).toBeLessThanOrEqual(3 * e.axes.B_branch + 1);
        expect(Object.keys(all).length).toBeGreaterThanOrEqual(Math.min(3 * e.axes.B_branch + 1, 10));
        for (const [field, v] of Object.entries(all))
          expect(opening.toLowerCase()).toContain(factPhrase(field as PolicyField, v).toLowerCase());
        const slots = e.hiddenGoal().slots as Array<{ omitted: boolean; critical: boolean; revealText: string }>;
        expect(slots[0].critical).toBe(true);
      }
  });

  it('the clause count is not readable from d (hence from the budgets): several counts occur at one d', () => {
    const counts = new Set<number>();
    for (let seed = 0; seed < 40; seed++) {
      const e = new Episode({ envId: 'POLICY', d: 12, seed }, catalog);
      e.reset();
      counts.add(getPolicyRule((e.hiddenGoal().data as PolicyGoal).ruleId)!.conditions.length);
    }
    expect(counts.size).toBeGreaterThanOrEqual(4);
  });

  it('no clause count is the one the budgets point at: at d = 12 each of 1..5 is drawn about equally often', () => {
    const counts = [0, 0, 0, 0, 0];
    for (let seed = 0; seed < 500; seed++) {
      const e = new Episode({ envId: 'POLICY', d: 12, seed }, catalog);
      e.reset();
      counts[getPolicyRule((e.hiddenGoal().data as PolicyGoal).ruleId)!.conditions.length - 1]++;
    }
    // uniform: 100 each, sd ≈ 9; under the v2 draw (P(c) ∝ c) five clauses came 167 times, one 33
    for (const n of counts) {
      expect(n).toBeGreaterThan(65);
      expect(n).toBeLessThan(135);
    }
  });

  it('distractors come from look-alike rules of the topic, with values that keep those rules from applying', () => {
    let lookAlikes = 0;
    for (let seed = 0; seed < 60; seed++) {
      const e = new Episode({ envId: 'POLICY', d: 9, seed }, catalog);
      e.reset();
      const goal = e.hiddenGoal().data as PolicyGoal;
      const siblings = POLICY_RULES.filter((r) => r.topic === goal.topic && r.rule_id !== goal.ruleId);
      if (
        Object.keys(goal.distractors ?? {}).some((f) => siblings.some((r) => r.conditions.some((c) => c.field === f)))
      )
        lookAlikes++;
    }
    expect(lookAlikes).toBeGreaterThan(20);
  });

  it('p_missing leaves non-critical facts out at about its rate', () => {
    let omitted = 0;
    let total = 0;
    for (let seed = 0; seed < 500; seed++) {
      const e = new Episode({ envId: 'POLICY', d: 12, seed, axisOverrides: { p_missing: 0.4 } }, catalog);
      e.reset();
      for (const s of e.hiddenGoal().slots as Array<{ omitted: boolean; critical: boolean }>) {
        if (s.critical) continue;
        total++;
        if (s.omitted) omitted++;
      }
    }
    expect(total).toBeGreaterThan(800);
    expect(Math.abs(omitted / total - 0.4)).toBeLessThan(0.045);
  });

  it('an omitted fact is revealed when the agent asks about it', () => {
    for (let seed = 0; seed < 50; seed++) {
      const e = new Episode({ envId: 'POLICY', d: 12, seed, axisOverrides: { p_missing: 1, p_noise: 0 } }, catalog);
      e.reset();
      const slots = e.hiddenGoal().slots as Array<{ id: string; omitted: boolean; revealText: string }>;
      if (!slots.some((s) => s.id === 'fact:member_tier' && s.omitted)) continue;
      const act: Action = { assistant_message: 'What membership tier are you on?', tool_calls: [], answer: null };
      const reply = e.step(act).events.find((x) => x.kind === 'customer_message') as { act: string; text: string };
      expect(reply.act).toBe('clarify');
      expect(reply.text.toLowerCase()).toContain(
        slots.find((s) => s.id === 'fact:member_tier')!.revealText.toLowerCase(),
      );
      return;
    }
    throw new Error('no seed omitted the member tier');
  });
});

describe('POLICY customer', () => {
  it('replies the same whether the agent states the right answer or a wrong one (no leak)', () => {
    for (let seed = 0; seed < 10; seed++) {
      const reply = (say: (goal: PolicyGoal) => string) => {
        const e = new Episode({ envId: 'POLICY', d: 4, seed, axisOverrides: { p_noise: 0 } }, catalog);
        e.reset();
        const goal = e.hiddenGoal().data as PolicyGoal;
        const r = e.step({
          assistant_message: say(goal),
          tool_calls: [{ name: 'datetime.now' }],
          answer: null,
        } satisfies Action);
        return (r.events.find((x) => x.kind === 'customer_message') as { act: string }).act;
      };
      expect(reply((g) => `I believe it is ${g.answer}.`)).toBe(reply(() => 'I believe it is 12345.'));
    }
  });
});
