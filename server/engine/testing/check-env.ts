// checkEnv: what an author of a new environment runs before calling it done (README, "Adding
// an environment"). It plays the env through the registry and returns the problems it found
// (none = pass):
// - solvable: the oracle passes at every d from 0 to 12
// - rewards in range: random play (broken calls mixed in) keeps every reward in [−1, 0.9]
// - deterministic: replaying the recorded actions gives the same events and reward
// - no goal leak: no observation contains the hidden goal (its JSON, its summary, sizeable parts)

import { oracleAgent } from '../agents/oracle';
import { createRandomAgent } from '../agents/random';
import type { Agent } from '../agents/types';
import type { Catalog } from '../catalog/types';
import { getEnv, isAvailableEnv } from '../envs/registry';
import type { EnvDefinition } from '../envs/types';
import { Episode } from '../episode';
import { replayEpisode } from '../play';
import type { Action, EnvId, EpisodeConfig, Observation } from '../types';

export const MAX_REWARD = 0.9;

export interface CheckEnvOptions {
  catalog: Catalog;
  /** Seeds the oracle plays at each d (default 2). */
  oracleSeeds?: number;
  /** Episodes of random play (default 16). */
  randomEpisodes?: number;
  oracle?: Agent;
}

/** Strings that give the goal away: its full JSON, its summary lines and every nested object's JSON of some size. */
export function goalSecrets(episode: Episode): string[] {
  const goal = episode.hiddenGoal();
  const out = [JSON.stringify(goal.data), ...goal.summary.map((l) => l.trim()).filter((l) => l.length >= 12)];
  const visit = (v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    const json = JSON.stringify(v);
    if (!Array.isArray(v) && json.length >= 40) out.push(json);
    for (const x of Object.values(v)) visit(x);
  };
  visit(goal.data);
  return out;
}

export interface PlayedEpisode {
  config: EpisodeConfig;
  episode: Episode;
  actions: Action[];
  /** Every observation the agent got, as JSON. */
  observations: string[];
  /** Secret strings seen in the hidden goal at any point of the episode. */
  secrets: Set<string>;
}

/** Plays one episode with the agent, keeping what the checks need. */
export function playRecorded(config: EpisodeConfig, catalog: Catalog, agent: Agent): PlayedEpisode {
  const episode = new Episode(config, catalog);
  let observation: Observation = episode.reset().observation;
  const observations = [JSON.stringify(observation)];
  const secrets = new Set(goalSecrets(episode));
  const actions: Action[] = [];
  while (!episode.done) {
    const action = agent.act(observation, episode);
    actions.push(action);
    observation = episode.step(action).observation;
    observations.push(JSON.stringify(observation));
    for (const s of goalSecrets(episode)) secrets.add(s);
  }
  return { config, episode, actions, observations, secrets };
}

/** Problems found in one played episode: reward out of range, a replay that differs, a goal leak. */
export function episodeProblems(
  { config, episode, actions, observations, secrets }: PlayedEpisode,
  catalog: Catalog,
): string[] {
  const at = `${config.envId} d=${config.d} seed=${config.seed}`;
  const problems: string[] = [];
  const total = episode.breakdown?.total;
  if (!episode.done || total === undefined) problems.push(`${at}: the episode did not end with a reward`);
  else if (!Number.isFinite(total) || total < -1 || total > MAX_REWARD + 1e-9)
    problems.push(`${at}: reward ${total} outside [−1, ${MAX_REWARD}]`);
  const again = replayEpisode(config, catalog, actions);
  if (JSON.stringify(again.events) !== JSON.stringify(episode.events) || again.breakdown?.total !== total)
    problems.push(`${at}: replaying the recorded actions gave other events or another reward`);
  for (const [i, obs] of observations.entries()) {
    const leak = [...secrets].find((secret) => obs.includes(secret));
    if (leak) problems.push(`${at}: observation ${i} shows the hidden goal (${leak.slice(0, 80)})`);
  }
  return problems;
}

export function checkEnv(env: EnvDefinition<unknown>, options: CheckEnvOptions): string[] {
  const { catalog, oracleSeeds = 2, randomEpisodes = 16, oracle = oracleAgent } = options;
  if (!isAvailableEnv(env.id) || getEnv(env.id) !== env)
    return [`${env.id} is not registered: add it to ENV_IDS (server/engine/types.ts) and envs/registry.ts`];
  const envId: EnvId = env.id;
  const problems: string[] = [];
  for (let d = 0; d <= 12; d++) {
    for (let s = 0; s < oracleSeeds; s++) {
      const played = playRecorded({ envId, d, seed: 100 * d + s }, catalog, oracle);
      const b = played.episode.breakdown!;
      if (!b.isCorrect)
        problems.push(
          `${envId} d=${d} seed=${100 * d + s}: the oracle did not pass (${played.episode.termination}, r_task ${b.rTask.toFixed(3)})`,
        );
      problems.push(...episodeProblems(played, catalog));
    }
  }
  for (let i = 0; i < randomEpisodes; i++) {
    const agent = createRandomAgent({ seed: i, pInvalid: 0.15, pPartialAnswer: 0.2 });
    problems.push(
      ...episodeProblems(playRecorded({ envId, d: (i * 5) % 15, seed: 1000 + i }, catalog, agent), catalog),
    );
  }
  return problems;
}
