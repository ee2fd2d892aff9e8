// The heuristic agent: sound play under arbitrary seeds and d, and decent at low d.

import { describe, expect, it } from 'vitest';
import { listEnvs } from '../../envs/registry';
import { playEpisode } from '../../play';
import { Rng } from '../../random';
import { testCatalog } from '../../testing/catalog-fixture';
import type { EnvId } from '../../types';
import { createHeuristicAgent } from './index';

const catalog = testCatalog();
const ENVS = listEnvs().map((e) => e.id as EnvId);
const agent = createHeuristicAgent();

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
        expect(['format_invalid', 'tool_invalid', 'safety_violation', 'aborted'], where).not.toContain(
          episode.termination,
        );
        expect(episode.breakdown!.total, where).toBeGreaterThanOrEqual(-1);
        expect(episode.breakdown!.total, where).toBeLessThanOrEqual(0.9 + 1e-9);
      }
  });

  it('passes often at low d (d = 0..2)', () => {
    for (const envId of ENVS) {
      const passed = [0, 1, 2].flatMap((d) =>
        Array.from({ length: 6 }, (_, s) => play(envId, d, 200 + s).breakdown!.isCorrect),
      );
      expect(mean(passed.map(Number)), envId).toBeGreaterThanOrEqual(envId === 'BUNDLE' ? 0.3 : 0.4);
    }
  });

  // How the dial bites for the heuristic (pass rate falls, ρ(d, mean reward) ≤ −0.8, failed
  // episodes score ≥ 0.15 below passed ones per d band) is heuristic-dial.test.ts, over 50 seeds × 13 d.
});
