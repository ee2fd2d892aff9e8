// distractorsFor (policy.ts) lists each rule's sibling fields once (siblingFields, round 13):
// the lists equal the ones computed each time before, and a rule's first call (lists built) and
// its later calls (lists read back; each episode shuffles its own copy) choose the same facts and
// leave the random stream in the same place, for every rule × 20 seeds × 1–4 distractors.
import { describe, expect, it } from 'vitest';
import { Rng } from '../random';
import { POLICY_RULES, rulesOfTopic, type PolicyRule } from '../world/policy-kb';
import { distractorsFor, factsFor, siblingFields } from './policy';

/** The lists as distractorsFor computed them on every call before round 13. */
function listedEachTime(rule: PolicyRule) {
  const siblings = rulesOfTopic(rule.topic).filter((r) => r !== rule);
  const extends_ = siblings.filter((r) =>
    rule.conditions.every((c) => r.conditions.some((o) => o.field === c.field && o.op === c.op && o.value === c.value)),
  );
  return {
    longer: extends_.flatMap((r) => r.conditions.map((c) => c.field)),
    lookAlike: siblings.flatMap((r) => r.conditions.map((c) => c.field)),
  };
}

describe('distractorsFor with sibling fields listed once per rule', () => {
  it('chooses the same facts on a rule’s first and later calls, and the lists are the ones computed each time', () => {
    let chosen = 0;
    for (const rule of POLICY_RULES) {
      const runs = (round: number) =>
        Array.from({ length: 20 }, (_, seed) => {
          const facts = factsFor(rule, new Rng(seed)) ?? {};
          const rng = new Rng(1000 + seed);
          const out = distractorsFor(rule, facts, 1 + (seed % 4), rng);
          if (round === 0) chosen += Object.keys(out).length;
          // the lists read back are still the ones computed each time (no call changes them)
          expect(siblingFields(rule), `${rule.rule_id} seed ${seed}`).toEqual(listedEachTime(rule));
          return { out, next: rng.next() };
        });
      const first = runs(0); // the rule's first call builds its lists
      const later = runs(1);
      expect(later, rule.rule_id).toEqual(first);
    }
    expect(chosen).toBeGreaterThan(POLICY_RULES.length * 10);
  });
});
