import { describe, expect, it } from 'vitest';
import { factsFor } from '../envs/policy';
import { Rng } from '../random';
import { applicableRules, FIELD_VALUES, NUMERIC_FIELDS, POLICY_CATEGORIES, POLICY_RULES, TOPICS } from './policy-kb';
import { searchPolicies } from './policy-search';

describe('policy knowledge base', () => {
  it('about 50 rules in the 5 categories, each with 1–5 conditions, every clause count present', () => {
    expect(POLICY_RULES.length).toBeGreaterThanOrEqual(45);
    expect(POLICY_RULES.length).toBeLessThanOrEqual(65);
    expect(new Set(POLICY_RULES.map((r) => r.category))).toEqual(new Set(POLICY_CATEGORIES));
    for (let n = 1; n <= 5; n++)
      expect(POLICY_RULES.filter((r) => r.conditions.length === n).length).toBeGreaterThanOrEqual(5);
    expect(new Set(POLICY_RULES.map((r) => r.rule_id)).size).toBe(POLICY_RULES.length);
    expect(new Set(POLICY_RULES.map((r) => r.title)).size).toBe(POLICY_RULES.length);
  });

  it('rules are well formed: known topic, one condition per field, valid values, answer type matches', () => {
    for (const r of POLICY_RULES) {
      expect(TOPICS[r.topic]).toBeDefined();
      expect(new Set(r.conditions.map((c) => c.field)).size).toBe(r.conditions.length);
      for (const c of r.conditions) {
        if (NUMERIC_FIELDS.has(c.field)) expect(typeof c.value).toBe('number');
        else {
          expect(c.op).toBe('eq');
          expect(FIELD_VALUES[c.field]).toContain(c.value);
        }
      }
      expect(r.answer_type).toBe(typeof r.answer === 'number' ? 'numeric' : 'categorical');
      expect(r.text).toContain(typeof r.answer === 'number' ? String(r.answer === 0 ? '0' : r.answer) : r.answer);
    }
  });

  it('the SPEC examples: basic free-shipping minimum 35, premium fee 99.99, standard delivery "5-7 business days"', () => {
    const answer = (topic: string, facts: Record<string, string | number>) => applicableRules(topic, facts)[0]?.answer;
    expect(answer('free_shipping_min', { member_tier: 'basic' })).toBe(35);
    expect(answer('annual_fee', { member_tier: 'premium' })).toBe(99.99);
    expect(answer('delivery_time', { shipping_speed: 'standard' })).toBe('5-7 business days');
    // the most specific rule wins
    expect(answer('free_shipping_min', { member_tier: 'basic', destination: 'alaska_hawaii' })).toBe(75);
    expect(answer('return_window_days', { department: 'grocery' })).toBe(0);
  });

  it('every rule is reachable: facts built from its conditions make it the single most specific rule of its topic', () => {
    for (const r of POLICY_RULES)
      for (let seed = 0; seed < 25; seed++) {
        const facts = factsFor(r, new Rng(seed));
        expect(facts, r.rule_id).not.toBeNull();
        const [first, second] = applicableRules(r.topic, facts!);
        expect(first.rule_id).toBe(r.rule_id);
        if (second) expect(second.conditions.length).toBeLessThan(r.conditions.length);
      }
  });
});

describe('policy search (BM25)', () => {
  it('finds every rule first by its own title', () => {
    for (const r of POLICY_RULES) expect(searchPolicies(r.title, 5)[0].rule_id, r.title).toBe(r.rule_id);
  });

  it('returns at most top_k rules, best first, each with id, title, text, category and score', () => {
    const hits = searchPolicies('free shipping minimum basic member', 3);
    expect(hits).toHaveLength(3);
    expect(hits[0].rule_id).toBe('SHP-01');
    expect(Object.keys(hits[0]).sort()).toEqual(['category', 'rule_id', 'score', 'text', 'title']);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
  });

  it('a query sharing no word with any rule finds nothing', () => {
    expect(searchPolicies('zebra quantum', 5)).toEqual([]);
  });
});
