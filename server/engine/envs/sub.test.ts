import { describe, expect, it } from 'vitest';
import { oracleAgent } from '../agents/oracle';
import { createSyntheticCatalog } from '../catalog/synthetic';
import type { Product } from '../catalog/types';
import { envKnobs } from '../difficulty';
import { playEpisode } from '../play';
import { createWorld } from '../world/state';
import { constraintMet, satisfaction } from './shared/persona';
import { scoreRecommendations } from './shared/recommend';
import { similarities } from './shared/test/similarity';
import { COMPATIBILITY_ATTRS, type SubGoal } from './sub';
import { act, episodeStarter, goalOf } from '../testing';

/** True when a product keeps every compatibility constraint of the goal. */
function isCompatible(goal: SubGoal, p: Product): boolean {
  return goal.compatibility.every((a) => goal.rec.constraints.some((c) => c.attr === a && constraintMet(p, c)));
}

const catalog = createSyntheticCatalog({ seed: 1, size: 20_000 });
const start = episodeStarter('SUB', catalog);

describe('SUB generator (properties over many seeds)', () => {
  it('the original is out of stock, meets its own constraints, and at least one compatibility attribute is an equality constraint', () => {
    for (let d = 0; d <= 12; d++)
      for (let seed = 0; seed < 15; seed++) {
        const e = start(d, seed);
        const g = goalOf<SubGoal>(e);
        const original = catalog.get(g.originalId)!;
        expect(e.stockOf(g.originalId, null)).toBe(0);
        expect(satisfaction(original, g.rec.constraints)).toBe(1);
        expect(g.compatibility.length).toBeGreaterThan(0);
        for (const a of g.compatibility) {
          expect(COMPATIBILITY_ATTRS).toContain(a);
          expect(g.rec.constraints.some((c) => c.attr === a && c.op === 'eq')).toBe(true);
        }
        expect(g.rec.pool.some((p) => p.id === g.originalId)).toBe(false);
        expect(g.rec.lambdaSim).toBeCloseTo(Math.min(0.8, Math.max(0.4, 0.4 + 0.05 * d)), 12);
        expect(g.rec.pool.filter((p) => p.rel > 0 && p.stock > 0).length).toBeGreaterThanOrEqual(g.rec.k);
      }
  });

  it('pool relevance is λ·sim + (1 − λ)·s for compatible products and 0 otherwise', () => {
    for (let seed = 0; seed < 8; seed++) {
      const g = goalOf<SubGoal>(start(seed, seed));
      const original = catalog.get(g.originalId)!;
      const entries = g.rec.pool.slice(0, 40);
      const products = entries.map((e) => catalog.get(e.id)!);
      for (const [i, e] of entries.entries()) {
        const p = products[i];
        const expected = isCompatible(g, p)
          ? g.rec.lambdaSim * e.sim + (1 - g.rec.lambdaSim) * satisfaction(p, g.rec.constraints)
          : 0;
        expect(e.rel).toBeCloseTo(expected, 12);
        expect(e.sim).toBeGreaterThanOrEqual(0);
        expect(e.sim).toBeLessThanOrEqual(1);
      }
      // the original is most similar to itself
      expect(similarities(original, [original, ...products])[0]).toBeCloseTo(1, 12);
    }
  });

  it('an incompatible product scores relevance 0 even when similar', () => {
    const e = start(5, 3);
    const g = goalOf<SubGoal>(e);
    const compat = g.rec.constraints.find((c) => c.attr === g.compatibility[0])!;
    const incompatible = catalog
      .indicesInCategory(g.rec.category)
      .map((i) => catalog.at(i))
      .find((p) => String(p.attrs[compat.attr] ?? '').toLowerCase() !== String(compat.value).toLowerCase())!;
    const ctx = {
      catalog,
      axes: e.axes,
      d: 5,
      knobs: envKnobs(5),
      world: createWorld('2026-01-01'),
      seen: new Map([[incompatible.id, 1]]),
      calls: [],
      turn: 1,
    };
    const r = scoreRecommendations(g.rec, [incompatible.id], ctx);
    expect(r.metrics.ndcg).toBe(0);
  });

  it('openings name the original and vary (5+ templates)', () => {
    const starts = new Set<string>();
    for (let seed = 0; seed < 60; seed++) {
      const e = start(0, seed);
      const text = (e.events[0] as { text: string }).text;
      expect(text).toContain(goalOf<SubGoal>(e).originalTitle.split(' ')[0]);
      starts.add(text.split(' ').slice(0, 3).join(' '));
    }
    expect(starts.size).toBeGreaterThanOrEqual(5);
  });
});

describe('SUB through an episode', () => {
  it('the oracle passes every d in 0–12 × 20 seeds', () => {
    const failures: string[] = [];
    for (let d = 0; d <= 12; d++)
      for (let seed = 0; seed < 20; seed++) {
        const { episode } = playEpisode({ envId: 'SUB', d, seed }, catalog, oracleAgent);
        if (!episode.breakdown!.isCorrect || episode.breakdown!.rHall !== 0) failures.push(`d=${d} seed=${seed}`);
      }
    expect(failures).toEqual([]);
  });

  it('recommending the out-of-stock original is penalised (r_oos) and corrected by the customer', () => {
    const e = start(2, 4, { p_noise: 0 });
    const g = goalOf<SubGoal>(e);
    const r = e.step(
      act({
        assistant_message: `Maybe ${g.originalId}?`,
        tool_calls: [{ name: 'catalog.get_product', args: { product_id: g.originalId } }],
      }),
    );
    expect((r.events.find((x) => x.kind === 'customer_message') as { act: string }).act).toBe('correct');
    const done = e.step(act({ answer: { env: 'SUB', done: true, recommended_product_ids: [g.originalId] } }));
    expect(done.breakdown!.task.metrics.oosShare).toBe(1);
    expect(done.breakdown!.isCorrect).toBe(false);
  });

  it('p_oos = 1 takes seen compatible alternatives out of stock but leaves k of them', () => {
    const e = start(6, 8, { p_oos: 1, B_tool: 20 });
    const g = goalOf<SubGoal>(e);
    const ids = g.rec.pool
      .filter((p) => p.rel > 0 && p.stock > 0)
      .slice(0, 15)
      .map((p) => p.id);
    // retrieved one by one (rerank does not retrieve, issue 7.5)
    e.step(act({ tool_calls: ids.map((id) => ({ name: 'catalog.get_product', args: { product_id: id } })) }));
    const gone = e.events.filter((x) => x.kind === 'world_change');
    expect(gone.length).toBeGreaterThan(0);
    expect(g.rec.pool.filter((p) => p.rel > 0 && (e.stockOf(p.id, null) ?? 0) > 0).length).toBeGreaterThanOrEqual(
      g.rec.k,
    );
  });
});
