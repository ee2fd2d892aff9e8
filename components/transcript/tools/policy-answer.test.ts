import { describe, expect, it } from 'vitest';
import { POLICY_RULES } from '@/server/engine/world/policy-kb';
import { policyAnswerOf } from './policy-answer';

describe("a policy rule's answer read off its text", () => {
  it('gives back every rule’s own answer', () => {
    for (const rule of POLICY_RULES) expect(policyAnswerOf(rule.text), rule.rule_id).toBe(rule.answer);
  });

  it('reads nothing from text that is not a rule', () => {
    expect(policyAnswerOf('Free shipping on everything!')).toBeNull();
    expect(policyAnswerOf('Applies to basic members: something else entirely.')).toBeNull();
  });
});
