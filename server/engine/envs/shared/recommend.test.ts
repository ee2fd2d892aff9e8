// Hand-computed cases for the shared recommendation verifier (recommend.ts),
// the persona pieces (persona.ts) and the TF-IDF similarity (test/similarity.ts).

import { describe, expect, it } from 'vitest';
import { createCatalogFromProducts } from '../../catalog/from-products';
import { axesFor, envKnobs } from '../../difficulty';
import { Rng } from '../../random';
import { createWorld } from '../../world/state';
import {
  constraintFor,
  describeConstraint,
  makeConstraints,
  satisfaction,
  samplePersonaWeights,
  utility,
  type Constraint,
} from './persona';
import {
  dcg,
  ndcgAt,
  relevanceOf,
  scoreRecommendations,
  TASK_WEIGHTS,
  type PoolEntry,
  type RecommendationSpec,
} from './recommend';
import { similarities } from './test/similarity';
import { mk } from '../../testing/products';

const products = [
  mk('A', { price: 20 }),
  mk('B', { price: 25 }),
  mk('C', { price: 40 }), // misses price ≤ 30: s = 0.5
  mk('D', { category: 'grocery/tea', attrs: {} }),
];
const catalog = createCatalogFromProducts('tiny', products);
const constraints: Constraint[] = [
  { attr: 'price', op: 'max', value: 30 },
  { attr: 'color', op: 'eq', value: 'black' },
];
const entry = (id: string, rel: number, s: number): PoolEntry => ({ id, s, u: rel, sim: 0, rel, stock: 10 });

function spec(over: Partial<RecommendationSpec> = {}): RecommendationSpec {
  return {
    mode: 'discovery',
    referenceId: 'A',
    category: 'electronics/chargers',
    constraints,
    compatibility: [],
    persona: {
      weights: { price: 0.2, rating: 0.2, shipping: 0.2, brand: 0.2, similarity: 0.2 },
      priceLow: 10,
      priceHigh: 50,
      preferredBrand: 'Acme',
    },
    k: 2,
    alpha: 4,
    lambdaSim: 0.5,
    weights: TASK_WEIGHTS.discovery,
    passThreshold: 0.95,
    excludeIds: [],
    pool: [entry('A', 0.8, 1), entry('B', 0.6, 1), entry('C', 0.4, 0.5)],
    ...over,
  };
}

function ctx(opts: { seen?: string[]; oos?: string[]; turn?: number; changedAt?: number } = {}) {
  const world = createWorld('2026-01-01');
  for (const id of opts.oos ?? []) world.stockOverrides.set(id, 0);
  // the oos ids went out of stock through p_oos at this turn (from a stock of 10)
  if (opts.changedAt !== undefined)
    for (const id of opts.oos ?? []) world.stockChanges.push({ id, turn: opts.changedAt, before: 10 });
  const seen = new Map((opts.seen ?? ['A', 'B', 'C', 'D']).map((id) => [id, 1]));
  return { catalog, axes: axesFor(2), d: 2, knobs: envKnobs(2), world, seen, calls: [], turn: opts.turn ?? 2 };
}

const L3 = Math.log2(3);

describe('nDCG', () => {
  it('DCG uses log2(rank + 1)', () => {
    expect(dcg([3, 2, 1])).toBeCloseTo(3 + 2 / L3 + 1 / 2, 12);
  });
  it('nDCG@3 of [3, 2] against the ideal [3, 2, 1]', () => {
    expect(ndcgAt([3, 2], [1, 2, 3], 3)).toBeCloseTo((3 + 2 / L3) / (3 + 2 / L3 + 0.5), 12);
  });
  it('an empty ideal scores 0, never NaN', () => {
    expect(ndcgAt([1], [], 3)).toBe(0);
  });
});

describe('scoreRecommendations (PD weights 0.55 / 0.35 / 0.10)', () => {
  it('the ideal list in stock scores 1 and passes', () => {
    const r = scoreRecommendations(spec(), ['A', 'B'], ctx());
    expect(r.metrics.ndcg).toBe(1);
    expect(r.rTask).toBeCloseTo(1, 12);
    expect(r.isCorrect).toBe(true);
  });

  it('a swapped order loses rank credit: nDCG = (0.6 + 0.8/log2 3)/(0.8 + 0.6/log2 3)', () => {
    const ndcg = (0.6 + 0.8 / L3) / (0.8 + 0.6 / L3);
    const r = scoreRecommendations(spec(), ['B', 'A'], ctx());
    expect(r.metrics.ndcg).toBeCloseTo(ndcg, 12);
    expect(r.rTask).toBeCloseTo(0.55 * (2 * ndcg - 1) + 0.35 + 0.1, 12);
    expect(r.isCorrect).toBe(false);
  });

  it('round 11: a fail whose only loss is rank (nDCG 0.951) shows r_rank ✗ and the verdict with its values', () => {
    // B's relevance 0.64, swapped: nDCG = (0.64 + 0.8/log2 3)/(0.8 + 0.64/log2 3) = 1.144744/1.203795 = 0.950946,
    // r_rank = 0.901892, r_task = 0.55·0.901892 + 0.35 + 0.1 = 0.946040 < 0.95. Before, r_rank was ✓ (nDCG ≥ 0.95).
    const r = scoreRecommendations(spec({ pool: [entry('A', 0.8, 1), entry('B', 0.64, 1)] }), ['B', 'A'], ctx());
    expect(r.metrics.ndcg).toBeCloseTo(0.950946, 5);
    expect(r.rTask).toBeCloseTo(0.94604, 5);
    expect(r.isCorrect).toBe(false);
    expect(r.evidence.find((e) => e.text.includes('→ r_rank'))).toMatchObject({ ok: false, role: 'part' });
    expect(r.evidence.at(-1)).toEqual({
      text: 'r_task = 0.55·r_rank + 0.35·r_cons + 0.1·r_oos = 0.55·0.902 + 0.35·1 + 0.1·1 = 0.946 (pass ≥ 0.95) → fail',
      turns: [],
      ok: false,
      role: 'verdict',
    });
    // nDCG 1 is the only ✓ rank: the ideal list
    expect(scoreRecommendations(spec(), ['A', 'B'], ctx()).evidence.find((e) => e.text.includes('→ r_rank'))!.ok).toBe(
      true,
    );
  });

  it('an out-of-stock recommendation: relevance 0, r_oos = 1 − 2·share; the ideal shrinks to the one in-stock item meeting everything', () => {
    const r = scoreRecommendations(spec(), ['A', 'B'], ctx({ oos: ['A'] }));
    // wanted: B only (C misses a constraint) → IDCG = 0.6; DCG = 0 + 0.6/log2 3
    const ndcg = 1 / L3;
    expect(r.metrics.idealSize).toBe(1);
    expect(r.metrics.ndcg).toBeCloseTo(ndcg, 12);
    expect(r.metrics.oosShare).toBe(0.5);
    expect(r.metrics.rOos).toBe(0);
    expect(r.rTask).toBeCloseTo(0.55 * (2 * ndcg - 1) + 0.35 * 1 + 0.1 * 0, 12);
    expect(r.evidence[0].text).toMatch(/0 because out of stock/);
    expect(r.evidence[0].ok).toBe(false);
  });

  it('revision 2: fewer than k meet every constraint → exactly those, in ideal order, pass (padding is not needed)', () => {
    const r = scoreRecommendations(spec(), ['B'], ctx({ oos: ['A'] }));
    expect(r.metrics).toMatchObject({ ndcg: 1, idealSize: 1, sMax: 1 });
    expect(r.rTask).toBeCloseTo(1, 12);
    expect(r.isCorrect).toBe(true);
    // a rejected product (C misses the price) earns nothing, even at rank 1
    const c = scoreRecommendations(spec(), ['C', 'B'], ctx({ oos: ['A'] }));
    expect(c.metrics.ndcg).toBeCloseTo(1 / L3, 12);
    expect(c.evidence[0].text).toMatch(/0 because better matches are in stock/);
  });

  it('revision 2: none in stock meets everything → the closest matches are wanted, r_cons against the reachable s', () => {
    const r = scoreRecommendations(spec(), ['C'], ctx({ oos: ['A', 'B'] }));
    expect(r.metrics).toMatchObject({ ndcg: 1, sMax: 0.5, sBest: 0.5, rCons: 1 });
    expect(r.rTask).toBeCloseTo(1, 12);
    expect(r.evidence.some((e) => /no in-stock product meets every constraint/.test(e.text))).toBe(true);
  });

  it('a p_oos change in the answer turn is not held against the agent; an answer after it is', () => {
    expect(scoreRecommendations(spec(), ['A', 'B'], ctx({ oos: ['A'], changedAt: 2, turn: 2 })).rTask).toBeCloseTo(
      1,
      12,
    );
    expect(scoreRecommendations(spec(), ['A', 'B'], ctx({ oos: ['A'], changedAt: 2, turn: 3 })).metrics.oosShare).toBe(
      0.5,
    );
  });

  it('r_cons = 2·(s_best/s_max)^α − 1 with α = 4: only C (s = 0.5) while A, B meet everything → −0.875, and C earns no rank', () => {
    const r = scoreRecommendations(spec(), ['C'], ctx());
    expect(r.metrics.sBest).toBe(0.5);
    expect(r.metrics.ndcg).toBe(0);
    expect(r.metrics.rCons).toBeCloseTo(-0.875, 12);
    expect(r.rTask).toBeCloseTo(0.55 * -1 + 0.35 * -0.875 + 0.1, 12);
    expect(r.evidence[0].text).toMatch(/misses under \$30/);
  });

  it('unknown ids count as unavailable; a product outside the pool has relevance 0; only the first k count', () => {
    const r = scoreRecommendations(spec(), ['A', 'nope', 'B'], ctx());
    expect(r.metrics.oosShare).toBe(0.5);
    expect(r.metrics.ndcg).toBeCloseTo(0.8 / (0.8 + 0.6 / L3), 12);
    const d = scoreRecommendations(spec(), ['D', 'A'], ctx());
    expect(d.evidence[0].text).toMatch(/not in the evaluation pool/);
  });

  it('a never-retrieved recommendation is flagged in the evidence (r_hall is charged by the reward)', () => {
    const r = scoreRecommendations(spec(), ['A', 'B'], ctx({ seen: ['A'] }));
    expect(r.evidence[1].text).toMatch(/never retrieved/);
    expect(r.evidence[1].ok).toBe(false);
    expect(r.evidence[0].turns).toEqual([1]);
  });

  it('no recommendations at all: r_task = −1', () => {
    expect(scoreRecommendations(spec(), [], ctx()).rTask).toBe(-1);
  });

  it('SUB weights: r_task = 0.8·r_rank + 0.2·r_oos', () => {
    const s = spec({ mode: 'substitute', weights: TASK_WEIGHTS.substitute });
    const r = scoreRecommendations(s, ['B', 'A'], ctx());
    const ndcg = (0.6 + 0.8 / L3) / (0.8 + 0.6 / L3);
    expect(r.rTask).toBeCloseTo(0.8 * (2 * ndcg - 1) + 0.2, 12);
  });
});

describe('relevance', () => {
  it('discovery: u·s^α (u on products meeting every constraint)', () => {
    const sp = { mode: 'discovery' as const, alpha: 4, lambdaSim: 0.5 };
    expect(relevanceOf(sp, 1, 0.7, 0, true)).toBeCloseTo(0.7, 12);
    expect(relevanceOf(sp, 0.5, 0.8, 0, true)).toBeCloseTo(0.05, 12);
  });
  it('substitute: λ·sim + (1 − λ)·s, 0 when a compatibility constraint fails', () => {
    const sp = { mode: 'substitute' as const, alpha: 4, lambdaSim: 0.6 };
    expect(relevanceOf(sp, 0.5, 0, 0.8, true)).toBeCloseTo(0.6 * 0.8 + 0.4 * 0.5, 12);
    expect(relevanceOf(sp, 1, 0, 0.9, false)).toBe(0);
  });
});

describe('TF-IDF similarity', () => {
  it('matches the hand computation on three tiny documents', () => {
    const ref = mk('R', { title: 'Alpha Beta', category: 'x/y', attrs: {} });
    const x = mk('X', { title: 'Alpha', category: 'x/y', attrs: {} });
    const y = mk('Y', { title: 'Gamma', category: 'x/y', attrs: {} });
    // N = 3 documents; idf = ln((1 + N)/(1 + df)) + 1; cat and dept tokens are in all three (idf 1)
    const ia = Math.log(4 / 3) + 1;
    const ib = Math.log(2) + 1;
    const nr = Math.sqrt(ia * ia + ib * ib + 2);
    const [sx, sy] = similarities(ref, [x, y]);
    expect(sx).toBeCloseTo((ia * ia + 2) / (nr * Math.sqrt(ia * ia + 2)), 12);
    expect(sy).toBeCloseTo(2 / (nr * Math.sqrt(ib * ib + 2)), 12);
  });
  it('is 1 for an identical product and ranks shared attributes higher', () => {
    const ref = mk('R', { attrs: { color: 'Black', connector_type: 'USB-C' } });
    const [same, close, far] = similarities(ref, [
      mk('S', { title: ref.title, attrs: ref.attrs }),
      mk('T', { attrs: { color: 'Black', connector_type: 'USB-C' } }),
      mk('U', { attrs: { color: 'White', connector_type: 'Lightning' } }),
    ]);
    expect(same).toBeCloseTo(1, 12);
    expect(close).toBeGreaterThan(far);
    expect(far).toBeGreaterThanOrEqual(0);
  });
});

describe('constraints and persona', () => {
  const target = mk('T', {
    price: 31.99,
    rating: 4.3,
    shipDays: 4,
    attrs: { color: 'Black', wattage: 65, weight_lb: 2.5 },
  });

  it("numeric bounds go the customer's way and the target always meets them", () => {
    const rng = new Rng(1);
    for (let i = 0; i < 200; i++) {
      for (const attr of ['price', 'rating', 'ship_days', 'wattage', 'weight_lb', 'color', 'brand']) {
        const c = constraintFor(target, attr, 0.5, rng);
        expect(satisfaction(target, [c])).toBe(1);
        if (attr === 'price' || attr === 'ship_days' || attr === 'weight_lb') expect(c.op).toBe('max');
        if (attr === 'rating' || attr === 'wattage') expect(c.op).toBe('min');
        if (attr === 'color' || attr === 'brand') expect(c.op).toBe('eq');
      }
    }
  });

  it('δ = 0 bounds sit at the value; price bounds are whole dollars', () => {
    const rng = new Rng(2);
    expect(constraintFor(target, 'price', 0, rng)).toEqual({ attr: 'price', op: 'max', value: 32 });
    expect(constraintFor(target, 'rating', 0, rng)).toEqual({ attr: 'rating', op: 'min', value: 4.3 });
    expect(describeConstraint({ attr: 'price', op: 'max', value: 32 })).toBe('under $32');
  });

  it('makeConstraints puts required first and caps n by what the product has', () => {
    const cs = makeConstraints(target, 20, 0.3, new Rng(3), { required: ['price'] });
    expect(cs[0].attr).toBe('price');
    expect(cs.length).toBe(4 + 3); // price, rating, ship_days, brand + 3 attrs
  });

  it('persona weights sum to 1 and stated dimensions get +3 before renormalising', () => {
    const stated = samplePersonaWeights(new Rng(4), [{ attr: 'price', op: 'max', value: 1 }]);
    const plain = samplePersonaWeights(new Rng(4), []);
    expect(Object.values(stated).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(stated.price).toBeGreaterThan(plain.price);
    // same Dirichlet draw: stated.price = (x + 3)/(1 + 3) where x = plain.price
    expect(stated.price).toBeCloseTo((plain.price + 3) / 4, 12);
  });

  it('utility is Σ w_k φ_k with the SPEC φ definitions', () => {
    const persona = {
      weights: { price: 0.4, rating: 0.3, shipping: 0.1, brand: 0.1, similarity: 0.1 },
      priceLow: 10,
      priceHigh: 50,
      preferredBrand: 'Acme',
    };
    const p = mk('P', { price: 20, rating: 4, shipDays: 7 });
    expect(utility(p, persona, 0.5)).toBeCloseTo(0.4 * 0.75 + 0.3 * 0.75 + 0.1 * 0.5 + 0.1 * 1 + 0.1 * 0.5, 12);
  });
});
