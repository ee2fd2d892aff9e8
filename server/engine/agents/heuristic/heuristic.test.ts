// The heuristic agent: sound play under arbitrary seeds and d, decent at low d,
// and worse at high d than at low d (the dial makes tasks harder).

import { describe, expect, it } from 'vitest';
import { listEnvs } from '../../envs/registry';
import { playEpisode } from '../../play';
import { Rng } from '../../random';
import { testCatalog } from '../../test/catalog-fixture';
import type { EnvId } from '../../types';
import { createHeuristicAgent } from './index';

const catalog = testCatalog();
const ENVS = listEnvs().map((e) => e.id as EnvId);
const agent = createHeuristicAgent();

/**
 * Envs where a careful no-hidden-information agent's mean reward does not fall with d
 * (its pass rate does): the efficiency term rewards the larger turn budget of high d.
 * Reported with figures in docs/agents.md.
 */
export const DIAL_DOES_NOT_BITE: readonly EnvId[] = ['CART', 'RETURN', 'STATUS'];

const play = (envId: EnvId, d: number, seed: number) => playEpisode({ envId, d, seed }, catalog, agent).episode;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('heuristic agent', () => {
  it('never crashes, never sends an invalid action, and keeps rewards in [−1, 0.9] (random seeds and d)', () => {
    const rng = Rng.from('heuristic-property');
    for (const envId of ENVS)
      for (let i = 0; i < 12; i++) {
        const d = rng.int(0, 14);
        const seed = rng.int(0, 1_000_000);
        const episode = play(envId, d, seed);
        const where = `${envId} d=${d} seed=${seed}`;
        expect(episode.done, where).toBe(true);
        expect(['format_invalid', 'tool_invalid', 'safety_violation', 'aborted'], where).not.toContain(episode.termination);
        expect(episode.breakdown!.total, where).toBeGreaterThanOrEqual(-1);
        expect(episode.breakdown!.total, where).toBeLessThanOrEqual(0.9 + 1e-9);
      }
  });

  it('passes often at low d (d = 0..2)', () => {
    for (const envId of ENVS) {
      const passed = [0, 1, 2].flatMap((d) => Array.from({ length: 6 }, (_, s) => play(envId, d, 200 + s).breakdown!.isCorrect));
      expect(mean(passed.map(Number)), envId).toBeGreaterThanOrEqual(envId === 'BUNDLE' ? 0.3 : 0.4);
    }
  });

  const measured = new Map<EnvId, ReturnType<typeof measure>>();
  const lowVsHigh = (envId: EnvId) => measured.get(envId) ?? measured.set(envId, measure(envId)).get(envId)!;
  const measure = (envId: EnvId) => {
    const at = (ds: number[]) => ds.flatMap((d) => Array.from({ length: 16 }, (_, s) => play(envId, d, 300 + s).breakdown!));
    const [low, high] = [at([0, 1, 2]), at([10, 11, 12])];
    return {
      low: { reward: mean(low.map((b) => b.total)), pass: mean(low.map((b) => Number(b.isCorrect))) },
      high: { reward: mean(high.map((b) => b.total)), pass: mean(high.map((b) => Number(b.isCorrect))) },
    };
  };

  // STATUS stays easy for a careful agent at every d: it can look candidate orders up and the
  // customer's free confirm/correction settles which one is meant (docs/agents.md, known gap).
  for (const envId of ENVS.filter((e) => e !== 'STATUS')) {
    it(`${envId}: passes less often at d = 10..12 than at d = 0..2`, () => {
      const { low, high } = lowVsHigh(envId);
      expect(low.pass, `${envId}: pass rate low ${low.pass.toFixed(3)} vs high ${high.pass.toFixed(3)}`).toBeGreaterThan(high.pass);
    });
  }

  // In CART and RETURN the efficiency term outweighs the harder task: r_eff grows with T_max(d)
  // for the same number of turns (docs/agents.md), so only the pass rate is asserted there.
  for (const envId of ENVS.filter((e) => !DIAL_DOES_NOT_BITE.includes(e))) {
    it(`${envId}: mean reward at d = 0..2 exceeds d = 10..12`, () => {
      const { low, high } = lowVsHigh(envId);
      expect(low.reward, `${envId}: low ${low.reward.toFixed(3)} vs high ${high.reward.toFixed(3)}`).toBeGreaterThan(high.reward);
    });
  }
});
