// Running an agent through an episode, and rebuilding an episode from its actions.

import type { Agent } from './agents/types';
import type { Catalog } from './catalog/types';
import { Episode } from './episode';
import type { Action, EpisodeConfig } from './types';

export function createEpisode(config: EpisodeConfig, catalog: Catalog): Episode {
  return new Episode(config, catalog);
}

/** Plays to the end; returns the episode and the actions taken (for replay). */
export function playEpisode(config: EpisodeConfig, catalog: Catalog, agent: Agent) {
  const episode = new Episode(config, catalog);
  let observation = episode.reset().observation;
  const actions: Action[] = [];
  while (!episode.done) {
    const action = agent.act(observation, episode);
    actions.push(action);
    observation = episode.step(action).observation;
  }
  return { episode, actions };
}

/** Deterministic rebuild: the same config and actions give the same events and reward. */
export function replayEpisode(
  config: EpisodeConfig,
  catalog: Catalog,
  actions: ReadonlyArray<string | Action>,
): Episode {
  const episode = new Episode(config, catalog);
  episode.reset();
  for (const [i, action] of actions.entries()) {
    if (episode.done)
      throw new Error(
        `replay: the episode ended at turn ${episode.turn}, but ${actions.length - i} more action(s) were recorded`,
      );
    episode.step(action);
  }
  return episode;
}
