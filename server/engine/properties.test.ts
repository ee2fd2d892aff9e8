// Properties every environment must keep under arbitrary play: the random agent
// (with deliberately broken calls mixed in) drives many seeds at random d.
// - no crash, reward in [−1, 0.9]
// - verify is pure: re-scoring the final answer gives the recorded task result
// - replay determinism: replaying the recorded actions reproduces events and reward
// - pass/fail follows the pass rule listEnvs states
// - the hidden goal never reaches an agent-facing observation (its JSON, its
//   summary lines, and any sizeable piece of it)

import { describe, expect, it } from 'vitest';
import { createRandomAgent } from './agents/random';
import { listEnvs } from './envs/registry';
import { replayEpisode } from './play';
import { Rng } from './random';
import { MAX_REWARD, playRecorded, testCatalog, type PlayedEpisode } from './testing';
import type { EnvId, EpisodeConfig } from './types';

const catalog = testCatalog();
const ENVS = listEnvs().map((e) => e.id as EnvId);
const EPISODES_PER_ENV = 24;

const play = (config: EpisodeConfig, agentSeed: number): PlayedEpisode =>
  playRecorded(config, catalog, createRandomAgent({ seed: agentSeed, pInvalid: 0.15, pPartialAnswer: 0.2 }));

function configs(envId: EnvId): EpisodeConfig[] {
  const rng = Rng.from('properties', envId);
  return Array.from({ length: EPISODES_PER_ENV }, (_, i) => ({ envId, d: rng.int(0, 14), seed: 1000 + i }));
}

describe.each(ENVS)('%s under random play', (envId) => {
  const runs = configs(envId).map((config, i) => play(config, i));

  it('never crashes and keeps the reward in [−1, 0.9]', () => {
    for (const { episode, config } of runs) {
      const b = episode.breakdown!;
      expect(episode.done).toBe(true);
      expect(b.total, `d=${config.d} seed=${config.seed}`).toBeGreaterThanOrEqual(-1);
      expect(b.total, `d=${config.d} seed=${config.seed}`).toBeLessThanOrEqual(MAX_REWARD + 1e-9);
      expect(Number.isFinite(b.total)).toBe(true);
    }
  });

  it('replays its recorded actions to the same events and reward', () => {
    for (const { config, episode, actions } of runs) {
      const again = replayEpisode(config, catalog, actions);
      expect(JSON.stringify(again.events), `d=${config.d} seed=${config.seed}`).toBe(JSON.stringify(episode.events));
      expect(again.breakdown!.total).toBe(episode.breakdown!.total);
      expect(again.termination).toBe(episode.termination);
    }
  });

  it('verify is pure: scoring the final answer again, twice, gives the recorded task result', () => {
    for (const { episode, config } of runs) {
      const recorded = JSON.stringify(episode.breakdown!.task);
      const again = episode.scoreTask();
      if (again === null) {
        expect(episode.breakdown!.task.rTask, `d=${config.d} seed=${config.seed}`).toBe(-1);
        continue;
      }
      expect(JSON.stringify(again), `d=${config.d} seed=${config.seed}`).toBe(recorded);
      expect(JSON.stringify(episode.scoreTask())).toBe(recorded);
    }
  });

  it('passes exactly by the pass rule listEnvs states (the replay\'s "Why it failed" shows it)', () => {
    const env = listEnvs().find((e) => e.id === envId)!;
    const byRTask = env.passRule.startsWith('r_task ≥ 0.95,');
    for (const { episode, config } of runs) {
      const b = episode.breakdown!;
      const at = `d=${config.d} seed=${config.seed}`;
      // "…, and no recommended id the agent never retrieved (r_hall = 0)"; a hard fail fails whatever the rule says
      expect(b.isCorrect, at).toBe(b.hardFail === null && b.task.isCorrect && b.rHall === 0);
      if (byRTask) expect(b.task.isCorrect, at).toBe(b.task.rTask >= 0.95 - 1e-9);
    }
  });

  it('never shows the hidden goal in an observation', () => {
    for (const { config, observations, secrets } of runs) {
      for (const obs of observations)
        for (const secret of secrets)
          expect(obs.includes(secret), `d=${config.d} seed=${config.seed} leaks ${secret.slice(0, 120)}`).toBe(false);
    }
  });
});
