// The heuristic agent: sound play under arbitrary seeds and d, decent at low d,
// and worse at high d than at low d (the dial makes tasks harder).

import { describe, expect, it } from 'vitest';
import { listEnvs } from '../../index';
import { playEpisode } from '../../play';
import { Rng } from '../../random';
import { testCatalog } from '../../test/catalog-fixture';
import type { EnvId } from '../../types';
import { createHeuristicAgent } from './index';

const catalog = testCatalog();
const ENVS = listEnvs().map((e) => e.id as EnvId);
const agent = createHeuristicAgent();

/**
 * Envs where a careful no-hidden-information agent does not get worse with d in
 * the engine as it stands (reported with evidence in docs/agents.md): the
 * comparison below is expected to fail there until the environment changes.
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

  const lowVsHigh = (envId: EnvId) => {
    const at = (ds: number[]) => mean(ds.flatMap((d) => Array.from({ length: 8 }, (_, s) => play(envId, d, 300 + s).breakdown!.total)));
    return { low: at([0, 1, 2]), high: at([10, 11, 12]) };
  };

  for (const envId of ENVS) {
    const test = DIAL_DOES_NOT_BITE.includes(envId) ? it.fails : it;
    test(`${envId}: mean reward at d = 0..2 exceeds d = 10..12`, () => {
      const { low, high } = lowVsHigh(envId);
      expect(low, `${envId}: low ${low.toFixed(3)} vs high ${high.toFixed(3)}`).toBeGreaterThan(high);
    });
  }
});
