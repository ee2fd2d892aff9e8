// The shared recommendation verifier's scoring (SPEC §7 PD/SUB): what the customer wants
// from the evaluation pool, nDCG@k against it, and the PD-style r_task with its evidence.
// The choices are described at the top of recommend.ts and in docs/environments.md.

import { factor, num, verdict } from '../../evidence';
import type { EvidenceItem, TaskResult } from '../../types';
import type { VerifyContext } from '../types';
import { constraintMet, describeConstraint, satisfaction } from './persona';
import type { RecommendationSpec } from './recommend';
import { poolOf, type PoolEntry } from './evaluation-pool';
import { knownStock, type StockContext } from './recommend-stock';

/**
 * The wanted items now (see the header): in-stock relevant pool items whose satisfaction is
 * the highest any in-stock relevant item reaches (1 when one meets every constraint), in
 * relevance order; sMax is that satisfaction.
 */
export function wantedItems(spec: RecommendationSpec, ctx: StockContext): { sMax: number; wanted: PoolEntry[] } {
  const pool = poolOf(spec);
  const available: PoolEntry[] = [];
  for (let j = 0; j < pool.length; j++)
    if (pool.rel(j) > 0 && knownStock(pool.ids[j], pool.stock[j], ctx) > 0) available.push(pool.entry(j));
  const sMax = available.reduce((m, e) => Math.max(m, e.s), 0);
  return { sMax, wanted: available.filter((e) => e.s >= sMax - 1e-12) };
}

/** The ideal recommendation: the k most relevant wanted items (IDCG, and what the oracle answers). */
export function idealList(spec: RecommendationSpec, ctx: StockContext): PoolEntry[] {
  return wantedItems(spec, ctx).wanted.slice(0, spec.k);
}

/** DCG with the standard log2(rank + 1) discount (rank from 1). */
export function dcg(rels: readonly number[]): number {
  let sum = 0;
  rels.forEach((r, i) => (sum += r / Math.log2(i + 2)));
  return sum;
}

/** nDCG@k of a relevance list against the ideal relevances; 0 when the ideal is empty. */
export function ndcgAt(rels: readonly number[], idealRels: readonly number[], k: number): number {
  const ideal = dcg([...idealRels].sort((a, b) => b - a).slice(0, k));
  if (ideal <= 0) return 0;
  return Math.min(1, dcg(rels.slice(0, k)) / ideal);
}

const fmt = (x: number) => num(x);
/** nDCG at the ideal (float noise aside): r_rank lost nothing. */
const NDCG_FULL = 1 - 1e-9;

/** The verifier: PD-style r_task (weights by mode) with evidence per recommended id. */
export function scoreRecommendations(spec: RecommendationSpec, ids: readonly string[], ctx: VerifyContext): TaskResult {
  const recs = [...new Set(ids)].slice(0, spec.k);
  const pool = poolOf(spec);
  const { sMax, wanted } = wantedItems(spec, ctx);
  const evidence: EvidenceItem[] = [];
  const rels: number[] = [];
  let sBest = 0;
  let unavailable = 0;
  recs.forEach((id, i) => {
    const p = ctx.catalog.get(id);
    const seenAt = ctx.seen.get(id);
    const seenText = seenAt === undefined ? 'never retrieved' : `seen at turn ${seenAt}`;
    const turns = seenAt === undefined ? [] : [seenAt];
    if (!p) {
      rels.push(0);
      unavailable++;
      evidence.push({
        text: `#${i + 1} ${id}: unknown product id — relevance 0, counts as unavailable; ${seenText}`,
        turns,
        ok: false,
      });
      return;
    }
    // The customer asked for a kind of product: anything of another category meets nothing.
    const offCategory = p.category !== spec.category;
    const s = offCategory ? 0 : satisfaction(p, spec.constraints);
    sBest = Math.max(sBest, s);
    const met = spec.constraints.filter((c) => constraintMet(p, c)).map(describeConstraint);
    const missed = spec.constraints.filter((c) => !constraintMet(p, c)).map(describeConstraint);
    const stock = knownStock(id, p.stockQty, ctx);
    const at = pool.positionOf(id); // rank − 1
    const pooled = at === undefined ? undefined : { e: pool.entry(at), rank: at + 1 };
    const isWanted = pooled !== undefined && pooled.e.s >= sMax - 1e-12;
    const rel = pooled && stock > 0 && isWanted ? pooled.e.rel : 0;
    if (stock <= 0) unavailable++;
    rels.push(rel);
    const why = pooled
      ? `relevance ${fmt(rel)} (pool rank ${pooled.rank}${stock <= 0 ? ', 0 because out of stock' : !isWanted ? ', 0 because better matches are in stock' : ''})`
      : 'not in the evaluation pool: relevance 0';
    evidence.push({
      text:
        `#${i + 1} ${id} "${p.title}": s = ${fmt(s)}` +
        (offCategory ? ` (a ${p.category} product; the customer wants ${spec.category})` : '') +
        (met.length ? `; meets ${met.join(', ')}` : '') +
        (missed.length ? `; misses ${missed.join(', ')}` : '') +
        `; ${why}; ${stock > 0 ? `in stock (${stock})` : 'out of stock'}; ${seenText}`,
      turns,
      ok: rel > 0 && seenAt !== undefined,
    });
  });
  const ideal = wanted.slice(0, spec.k);
  const ndcg = ndcgAt(
    rels,
    ideal.map((e) => e.rel),
    spec.k,
  );
  const rRank = 2 * ndcg - 1;
  const sRatio = sMax > 0 ? Math.min(1, sBest / sMax) : sBest;
  const rCons = 2 * Math.pow(sRatio, spec.alpha) - 1;
  const oosShare = recs.length === 0 ? 1 : unavailable / recs.length;
  const rOos = 1 - 2 * oosShare;
  const w = spec.weights;
  const rTask = Math.min(1, Math.max(-1, w.rank * rRank + w.cons * rCons + w.oos * rOos));
  evidence.push({
    text:
      (sMax >= 1 - 1e-12
        ? `the customer wants the ${wanted.length} in-stock product(s) meeting every constraint; `
        : `no in-stock product meets every constraint: the customer settles for the ${wanted.length} closest match(es) (s = ${fmt(sMax)}); `) +
      `nDCG@${spec.k} = ${fmt(ndcg)} against the ideal of ${ideal.length} (pool ${pool.length}) → r_rank = ${fmt(rRank)}`,
    turns: [],
    ok: ndcg >= NDCG_FULL,
    role: 'part',
  });
  if (w.cons > 0)
    evidence.push({
      text: `best satisfaction s_best = ${fmt(sBest)} of a reachable ${fmt(sMax)}, α = ${spec.alpha} → r_cons = ${fmt(rCons)}`,
      turns: [],
      ok: sRatio >= 1 - 1e-12,
      role: 'part',
    });
  evidence.push({
    text: `${unavailable} of ${recs.length} recommendation(s) out of stock or unknown → r_oos = ${fmt(rOos)}`,
    turns: [],
    ok: unavailable === 0 && recs.length > 0,
    role: 'part',
  });
  for (const c of ctx.world.stockChanges.filter((c) => pool.positionOf(c.id) !== undefined)) {
    const counted = ctx.turn === undefined || ctx.turn > c.turn;
    evidence.push({
      text: `${c.id} went out of stock at turn ${c.turn}; ${counted ? 'counted (the answer came later, the agent could re-check)' : 'not counted (the answer came in the same turn)'}`,
      turns: [c.turn],
      // a counted change of a recommended product cost the answer (r_oos, no relevance)
      ok: !(counted && recs.includes(c.id)),
    });
  }
  const formula =
    w.cons > 0 ? `${w.rank}·r_rank + ${w.cons}·r_cons + ${w.oos}·r_oos` : `${w.rank}·r_rank + ${w.oos}·r_oos`;
  const values =
    w.cons > 0
      ? `${w.rank}·${factor(rRank)} + ${w.cons}·${factor(rCons)} + ${w.oos}·${factor(rOos)}`
      : `${w.rank}·${factor(rRank)} + ${w.oos}·${factor(rOos)}`;
  const pass = rTask >= spec.passThreshold - 1e-9;
  evidence.push({
    text: `r_task = ${formula} = ${values} = ${fmt(rTask)} (pass ≥ ${spec.passThreshold})${verdict(pass)}`,
    turns: [],
    ok: pass,
    role: 'verdict',
  });
  return {
    rTask,
    isCorrect: pass,
    metrics: {
      ndcg,
      rRank,
      sBest,
      sMax,
      rCons,
      oosShare,
      rOos,
      k: spec.k,
      poolSize: pool.length,
      idealSize: ideal.length,
    },
    evidence,
  };
}
