import { describe, expect, it } from 'vitest';
import { factsFor, numericScore, POLICY_TOPICS, rulesWithClauses } from '../envs/policy';
import { Rng } from '../random';
import {
  applicableRules,
  FIELD_VALUES,
  NUMERIC_FIELDS,
  POLICY_CATEGORIES,
  POLICY_RULES,
  policyBook,
  rulesOfTopic,
  TOPICS,
} from './policy-kb';
import { policyTokens, searchPolicies } from './policy-search';

describe('policy knowledge base', () => {
  it('hand-written rules plus the department tables: 5 categories, 1–5 conditions, unique ids and titles', () => {
    // 65 hand-written rules + 18 topics × 20 table rules (12 chain rules, 5 numeric twins, 3
    // branches since engine v4); return windows, return shipping fees and restocking fees have no
    // tables (the RETURN world's facts, policy-tables.ts)
    expect(POLICY_RULES).toHaveLength(65 + 18 * 20);
    expect(new Set(POLICY_RULES.map((r) => r.category))).toEqual(new Set(POLICY_CATEGORIES));
    for (let n = 1; n <= 5; n++)
      expect(POLICY_RULES.filter((r) => r.conditions.length === n).length).toBeGreaterThanOrEqual(5);
    expect(new Set(POLICY_RULES.map((r) => r.rule_id)).size).toBe(POLICY_RULES.length);
    expect(new Set(POLICY_RULES.map((r) => r.title)).size).toBe(POLICY_RULES.length);
  });

  it('a department table rule and its numeric twin: same words but one, different answers, never both applicable', () => {
    const twins = POLICY_RULES.filter(
      (r) => r.title.startsWith('Refund time for office items and requests made') && r.conditions.length === 2,
    );
    expect(twins.map((r) => r.text.replace(/: .*/, ''))).toEqual([
      'Applies to office items and requests made 14 days or less after delivery',
      'Applies to office items and requests made over 14 days after delivery',
    ]);
    expect(twins[0].answer).not.toBe(twins[1].answer);
    for (const days of [3, 14, 15, 40]) {
      const rules = applicableRules('refund_time', { department: 'office', days_since_delivery: days });
      expect(rules.filter((r) => twins.includes(r))).toHaveLength(1);
    }
  });

  // A facts-blind agent knows the question's topic and, from the budgets, d. Its best guess for a
  // topic is the answer the generator gives most often (topic uniform, c ~ U{1..B_branch} in
  // engine v3, rule uniform):
  // computed exactly here, it must stay at or under the 20% ceiling for every B_branch ≥ 2.
  it('the best facts-blind guess per topic is right at most 20% of the time at every B_branch ≥ 2', () => {
    const close = (a: number | string, b: number | string) =>
      typeof a === 'number' && typeof b === 'number' ? numericScore(a, b) >= 0.95 : a === b;
    for (let bBranch = 2; bBranch <= 5; bBranch++) {
      const weights = Array.from({ length: bBranch }, () => 1 / bBranch);
      for (const topic of POLICY_TOPICS) {
        const p = new Map<number | string, number>();
        weights.forEach((w, i) => {
          const rules = rulesWithClauses(topic, i + 1);
          for (const r of rules) p.set(r.answer, (p.get(r.answer) ?? 0) + w / rules.length);
        });
        const best = Math.max(
          ...[...p.keys()].map((a) => [...p.entries()].filter(([b]) => close(a, b)).reduce((s, [, x]) => s + x, 0)),
        );
        expect(best, `${topic} at B_branch ${bBranch}`).toBeLessThanOrEqual(0.2);
      }
    }
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

describe('the rule book of an engine v1/v2 episode (config.engineVersion)', () => {
  const v2 = policyBook(2);

  it("is v2's: 58 hand-written rules + 21 topics × 17 table rules, return windows and fees with look-alike tables", () => {
    expect(v2.rules).toHaveLength(58 + 21 * 17);
    const windows = v2.byTopic.get('return_window_days')!;
    expect(windows.map((r) => r.rule_id).slice(0, 3)).toEqual(['RET-01', 'RET-02', 'RET-03']);
    expect(windows).toHaveLength(3 + 17);
    expect(v2.byId.has('RET-18')).toBe(false);
    // rule ids are numbered over v2's table order: the same id names another rule in v3
    expect(v2.byId.get('RET-101')!.topic).toBe('return_window_days');
    expect(policyBook(3).byId.get('RET-101')!.topic).not.toBe('return_window_days');
  });

  it("policy.search searches the episode's book", () => {
    const v2Hits = searchPolicies('return window office', 5, 2).map((h) => h.rule_id);
    const v3Hits = searchPolicies('return window office', 5, 3).map((h) => h.rule_id);
    expect(v2Hits.every((id) => v2.byId.has(id))).toBe(true);
    expect(v3Hits).toContain('RET-16');
    expect(v2Hits).not.toContain('RET-16');
    expect(v2Hits.map((id) => v2.byId.get(id)!.topic)).toContain('return_window_days');
  });
});

describe('the rule book of an engine v3 episode', () => {
  const v3 = policyBook(3);

  it("is v4's without the branch rules: every v3 id names the same rule in v4", () => {
    expect(policyBook(4).rules).toBe(POLICY_RULES);
    const topics = new Set(POLICY_RULES.filter((r) => Number(r.rule_id.split('-')[1]) > 100).map((r) => r.topic));
    expect(POLICY_RULES.length - v3.rules.length).toBe(3 * topics.size);
    for (const r of v3.rules) expect(policyBook(4).byId.get(r.rule_id), r.rule_id).toEqual(r);
  });

  it("v4's branches: a two-clause department's second qualifier alone, with an answer no rule of the topic has", () => {
    const branches = POLICY_RULES.filter((r) => !v3.byId.has(r.rule_id));
    for (const b of branches) {
      const [dept, qualifier] = b.conditions;
      expect(dept.field).toBe('department');
      // the qualifier the topic's three-clause chains add second
      const chains = rulesOfTopic(b.topic).filter((r) => r.conditions.length === 3 && v3.byId.has(r.rule_id));
      expect(chains.map((r) => r.conditions[2])).toContainEqual(qualifier);
      expect(
        rulesOfTopic(b.topic).filter((r) => r.conditions.length === 2 && r.conditions[0].value === dept.value),
      ).toHaveLength(3);
      expect(rulesOfTopic(b.topic).filter((r) => r.answer === b.answer)).toEqual([b]);
    }
  });
});

describe('policy search (BM25)', () => {
  it('finds every rule by its own title: first, or second behind its numeric twin (one word apart)', () => {
    for (const r of POLICY_RULES)
      expect(
        searchPolicies(r.title, 2).map((h) => h.rule_id),
        r.title,
      ).toContain(r.rule_id);
    const first = POLICY_RULES.filter((r) => searchPolicies(r.title, 1)[0].rule_id === r.rule_id).length;
    expect(first).toBeGreaterThanOrEqual(POLICY_RULES.length - 5);
  });

  it('returns at most top_k rules, best first, each with id, title, text, category and score', () => {
    const hits = searchPolicies('free shipping minimum basic member', 3);
    expect(hits).toHaveLength(3);
    expect(hits[0].rule_id).toBe('SHP-01');
    expect(Object.keys(hits[0]).sort()).toEqual(['category', 'rule_id', 'score', 'text', 'title']);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
  });

  it('scores every rule exactly as an exhaustive BM25 pass over all rules does (the postings are a shortcut)', () => {
    const docs = POLICY_RULES.map((rule) => {
      const tokens = policyTokens(
        `${rule.title} ${rule.title} ${rule.text} ${rule.category} ${rule.topic.replace(/_/g, ' ')}`,
      );
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      return { rule, tf, length: tokens.length };
    });
    const avg = docs.reduce((s, d) => s + d.length, 0) / docs.length;
    const dfs = new Map<string, number>();
    for (const d of docs) for (const t of d.tf.keys()) dfs.set(t, (dfs.get(t) ?? 0) + 1);
    const df = (t: string) => dfs.get(t) ?? 0;
    const exhaustive = (query: string, k: number) => {
      const terms = [...new Set(policyTokens(query))];
      return docs
        .map((d) => {
          let score = 0;
          for (const t of terms) {
            const f = d.tf.get(t) ?? 0;
            const idf = Math.log(1 + (docs.length - df(t) + 0.5) / (df(t) + 0.5));
            if (f > 0) score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * d.length) / avg));
          }
          return { id: d.rule.rule_id, score };
        })
        .filter((x) => x.score > 0)
        .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
        .slice(0, k)
        .map((x) => ({ id: x.id, score: Math.round(x.score * 1000) / 1000 }));
    };
    const rng = new Rng(7);
    const words = POLICY_RULES.flatMap((r) => policyTokens(`${r.title} ${r.text}`));
    const queries = [
      ...POLICY_RULES.slice(0, 60).map((r) => r.text),
      ...Array.from({ length: 200 }, () => Array.from({ length: rng.int(1, 6) }, () => rng.pick(words)).join(' ')),
    ];
    for (const q of queries)
      expect(
        searchPolicies(q, 8).map((h) => ({ id: h.rule_id, score: h.score })),
        q,
      ).toEqual(exhaustive(q, 8));
  });

  it('a query sharing no word with any rule finds nothing', () => {
    expect(searchPolicies('zebra quantum', 5)).toEqual([]);
  });
});
