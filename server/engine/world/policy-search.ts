// Lexical search over the policy knowledge base (policy.search): BM25 over each
// rule's title, text, category and topic, with light stemming so "members"
// finds "member". Deterministic: ties go to the lower rule id.

import { POLICY_RULES, type PolicyRule } from './policy-kb';

const STOPWORDS = new Set(
  'a an and are as at be by can could do does for from get have how i if in is it its me my of on or so than that the their them this to was what when where which will with would you your'.split(
    ' ',
  ),
);

export function policyTokens(text: string): string[] {
  const raw = text.toLowerCase().match(/[a-z0-9]+(?:\.[0-9]+)?/g) ?? [];
  return raw
    .filter((t) => !STOPWORDS.has(t))
    .map((t) => (t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t));
}

const K1 = 1.2;
const B = 0.75;

interface Doc {
  rule: PolicyRule;
  tf: Map<string, number>;
  length: number;
}

const DOCS: Doc[] = POLICY_RULES.map((rule) => {
  const tokens = policyTokens(
    `${rule.title} ${rule.title} ${rule.text} ${rule.category} ${rule.topic.replace(/_/g, ' ')}`,
  );
  const tf = new Map<string, number>();
  for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
  return { rule, tf, length: tokens.length };
});
const AVG_LENGTH = DOCS.reduce((s, d) => s + d.length, 0) / DOCS.length;
const DF = new Map<string, number>();
for (const d of DOCS) for (const t of d.tf.keys()) DF.set(t, (DF.get(t) ?? 0) + 1);

const idf = (t: string) => {
  const df = DF.get(t) ?? 0;
  return Math.log(1 + (DOCS.length - df + 0.5) / (df + 0.5));
};

export interface PolicyHit {
  rule_id: string;
  title: string;
  text: string;
  category: string;
  score: number;
}

/** The top_k rules by BM25 score (rules that share no term with the query are left out). */
export function searchPolicies(query: string, topK: number): PolicyHit[] {
  const terms = [...new Set(policyTokens(query))];
  const scored = DOCS.map((d) => {
    let score = 0;
    for (const t of terms) {
      const f = d.tf.get(t) ?? 0;
      if (f > 0) score += (idf(t) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / AVG_LENGTH));
    }
    return { d, score };
  }).filter((x) => x.score > 0);
  scored.sort((a, b) => b.score - a.score || a.d.rule.rule_id.localeCompare(b.d.rule.rule_id));
  return scored.slice(0, topK).map(({ d, score }) => ({
    rule_id: d.rule.rule_id,
    title: d.rule.title,
    text: d.rule.text,
    category: d.rule.category,
    score: Math.round(score * 1000) / 1000,
  }));
}
