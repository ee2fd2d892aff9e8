// The heuristic agent: sound play under arbitrary seeds and d, decent at low d,
// worse at high d than at low d in pass rate and reward in every env (the dial makes tasks
// harder), and its failures score clearly below its passes (reward tracks pass).

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

  const measured = new Map<EnvId, ReturnType<typeof measure>>();
  const lowVsHigh = (envId: EnvId) => measured.get(envId) ?? measured.set(envId, measure(envId)).get(envId)!;
  const measure = (envId: EnvId) => {
    // STATUS fails rarely even at high d (2–8% in the 50-seed eval), so it needs more episodes to show it
    const seeds = envId === 'STATUS' ? 80 : 16;
    const at = (ds: number[]) =>
      ds.flatMap((d) => Array.from({ length: seeds }, (_, s) => play(envId, d, 300 + s).breakdown!));
    const [low, high] = [at([0, 1, 2]), at([10, 11, 12])];
    return {
      low: { reward: mean(low.map((b) => b.total)), pass: mean(low.map((b) => Number(b.isCorrect))) },
      high: { reward: mean(high.map((b) => b.total)), pass: mean(high.map((b) => Number(b.isCorrect))) },
    };
  };

  // Reward revision 2 and issue 7 (docs/environments.md, "Revision 2 in numbers"): the dial bites
  // in every env, in pass rate and in mean reward (the full 50-seed figures come from npm run eval).
  for (const envId of ENVS) {
    it(`${envId}: passes less often at d = 10..12 than at d = 0..2`, () => {
      const { low, high } = lowVsHigh(envId);
      expect(
        low.pass,
        `${envId}: pass rate low ${low.pass.toFixed(3)} vs high ${high.pass.toFixed(3)}`,
      ).toBeGreaterThan(high.pass);
    });
  }

  for (const envId of ENVS) {
    it(`${envId}: mean reward at d = 0..2 exceeds d = 10..12`, () => {
      const { low, high } = lowVsHigh(envId);
      expect(low.reward, `${envId}: low ${low.reward.toFixed(3)} vs high ${high.reward.toFixed(3)}`).toBeGreaterThan(
        high.reward,
      );
    });
  }

  // Reward tracks pass (issue 7): failed episodes score well below passed ones.
  for (const envId of ENVS) {
    it(`${envId}: failed episodes score at least 0.15 below passed ones (d = 0..12)`, () => {
      const runs = [0, 2, 4, 6, 8, 10, 12].flatMap((d) =>
        Array.from({ length: 8 }, (_, s) => play(envId, d, 500 + s).breakdown!),
      );
      const passed = runs.filter((b) => b.isCorrect).map((b) => b.total);
      const failed = runs.filter((b) => !b.isCorrect).map((b) => b.total);
      expect(passed.length, `${envId}: some passes`).toBeGreaterThan(0);
      expect(failed.length, `${envId}: some failures`).toBeGreaterThan(0);
      expect(
        mean(passed) - mean(failed),
        `${envId}: passed ${mean(passed).toFixed(3)} vs failed ${mean(failed).toFixed(3)}`,
      ).toBeGreaterThanOrEqual(0.15);
    });
  }
});
