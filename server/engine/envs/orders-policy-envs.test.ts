// RETURN, STATUS and POLICY end to end: the oracle proves every d in 0–12
// solvable, generators survive many seeds and overrides, episodes replay.
import { describe, expect, it } from 'vitest';
import { oracleAgent } from '../agents/oracle';
import { Episode } from '../episode';
import { playEpisode, replayEpisode } from '../play';
import { Rng } from '../random';
import { testCatalog } from '../testing/catalog-fixture';
import type { EnvId } from '../types';

const catalog = testCatalog();
const ENVS: EnvId[] = ['RETURN', 'STATUS', 'POLICY'];
const SEEDS = 20;

describe.each(ENVS)('%s', (envId) => {
  it(`the oracle reaches IsCorrect on every d in 0–12 × ${SEEDS} seeds`, () => {
    const failures: string[] = [];
    for (let d = 0; d <= 12; d++)
      for (let seed = 0; seed < SEEDS; seed++) {
        const { episode } = playEpisode({ envId, d, seed }, catalog, oracleAgent);
        const b = episode.breakdown!;
        if (!b.isCorrect || episode.termination !== 'answered')
          failures.push(
            `d=${d} seed=${seed} ${episode.termination}: ${b.task.evidence
              .filter((e) => !e.ok)
              .map((e) => e.text)
              .join(' | ')}`,
          );
        expect(episode.turn).toBeLessThanOrEqual(episode.axes.T_max);
      }
    expect(failures).toEqual([]);
  });

  it('generators never crash, over d 0–20 and random axis overrides', () => {
    const rng = new Rng(42);
    for (let i = 0; i < 150; i++) {
      const d = rng.int(0, 20);
      const axisOverrides = rng.bernoulli(0.5)
        ? { H_orders: rng.int(1, 12), B_branch: rng.int(1, 9), p_missing: rng.next(), m: rng.int(1, 10) }
        : {};
      const e = new Episode({ envId, d, seed: rng.int(0, 1e6), axisOverrides }, catalog);
      const first = e.reset();
      expect(first.observation.customerMessage!.length).toBeGreaterThan(10);
      expect(e.hiddenGoal().summary.length).toBeGreaterThan(0);
    }
  });

  it('is deterministic: the same config gives the same opening and goal, and a replay gives the same reward', () => {
    const config = { envId, d: 9, seed: 77 };
    const { episode, actions } = playEpisode(config, catalog, oracleAgent);
    const again = replayEpisode(config, catalog, actions);
    expect(again.events).toEqual(episode.events);
    expect(JSON.stringify(again.hiddenGoal().data)).toBe(JSON.stringify(episode.hiddenGoal().data));
  });
});
