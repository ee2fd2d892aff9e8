// Lexical search over the policy knowledge base (policy.search): BM25 over each
// rule's title, text, category and topic, with light stemming so "members"
// finds "member". Deterministic: ties go to the lower rule id.

import { policyBook, type PolicyBook, type PolicyRule } from './policy-kb';

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

/**
 * A term's postings as two flat arrays: the rules, and what the term adds to each rule's score.
 * The addend is the expression a query evaluated per posting, `(w · f · (K1 + 1)) / (f + norm)`,
 * with the same operands, so it is the same double, computed once here instead of per query
 * (policy.search is on JOURNEY's and POLICY's step path; issue 13, eleventh round).
 */
interface Postings {
  docs: Int32Array;
  adds: Float64Array;
}

/** A rule book's search index, built once per book. */
interface Index {
  docs: Doc[];
  postings: Map<string, Postings>;
  /** One score per rule, kept between queries: a query sets back to 0 the rules it touched. */
  scores: Float64Array;
}

function indexOf(rules: readonly PolicyRule[]): Index {
  const docs: Doc[] = rules.map((rule) => {
    const tokens = policyTokens(
      `${rule.title} ${rule.title} ${rule.text} ${rule.category} ${rule.topic.replace(/_/g, ' ')}`,
    );
    const tf = new Map<string, number>();
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { rule, tf, length: tokens.length };
  });
  const avgLength = docs.reduce((s, d) => s + d.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const t of d.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };
  // Postings (term → the rules holding it, with tf) and each rule's length norm, built once: a
  // query visits only the rules sharing a term with it instead of all ~400 (issue 13). Each score
  // adds the same terms in the same order with the same expressions, so it is bit-identical.
  const norm = docs.map((d) => K1 * (1 - B + (B * d.length) / avgLength));
  const termDocs = new Map<string, Array<{ doc: number; f: number }>>();
  docs.forEach((d, doc) => {
    for (const [t, f] of d.tf) {
      let list = termDocs.get(t);
      if (!list) termDocs.set(t, (list = []));
      list.push({ doc, f });
    }
  });
  const postings = new Map<string, Postings>();
  for (const [t, list] of termDocs) {
    const w = idf(t);
    const ids = new Int32Array(list.length);
    const adds = new Float64Array(list.length);
    list.forEach(({ doc, f }, j) => {
      ids[j] = doc;
      adds[j] = (w * f * (K1 + 1)) / (f + norm[doc]);
    });
    postings.set(t, { docs: ids, adds });
  }
  return { docs, postings, scores: new Float64Array(docs.length) };
}

const INDEXES = new WeakMap<PolicyBook, Index>();

function indexFor(engineVersion?: number): Index {
  const book = policyBook(engineVersion);
  let index = INDEXES.get(book);
  if (!index) INDEXES.set(book, (index = indexOf(book.rules)));
  return index;
}

export interface PolicyHit {
  rule_id: string;
  title: string;
  text: string;
  category: string;
  score: number;
}

/**
 * The top_k rules by BM25 score (rules that share no term with the query are left out), in the
 * rule book of `engineVersion` (default: the current one).
 */
export function searchPolicies(query: string, topK: number, engineVersion?: number): PolicyHit[] {
  const index = indexFor(engineVersion);
  const scores = index.scores;
  const terms = [...new Set(policyTokens(query))];
  const touched: number[] = [];
  for (const t of terms) {
    const postings = index.postings.get(t);
    if (!postings) continue;
    const { docs, adds } = postings;
    for (let j = 0; j < docs.length; j++) {
      const doc = docs[j];
      if (scores[doc] === 0) touched.push(doc);
      scores[doc] += adds[j];
    }
  }
  // best first, ties to the lower rule id; only the top k are kept (insertion into a short list)
  const before = (a: number, b: number) =>
    scores[a] > scores[b] ||
    (scores[a] === scores[b] && index.docs[a].rule.rule_id.localeCompare(index.docs[b].rule.rule_id) < 0);
  const top: number[] = [];
  for (const doc of touched) {
    if (!(scores[doc] > 0) || (top.length === topK && !before(doc, top[topK - 1]))) continue;
    let i = top.length === topK ? topK - 1 : top.length;
    while (i > 0 && before(doc, top[i - 1])) {
      top[i] = top[i - 1];
      i--;
    }
    top[i] = doc;
  }
  const hits = top.map((doc) => {
    const { rule } = index.docs[doc];
    return {
      rule_id: rule.rule_id,
      title: rule.title,
      text: rule.text,
      category: rule.category,
      score: Math.round(scores[doc] * 1000) / 1000,
    };
  });
  for (const doc of touched) scores[doc] = 0;
  return hits;
}
