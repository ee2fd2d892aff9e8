// Test helpers shared by the engine's tests: an action, a started episode, its hidden goal.

import type { Catalog } from '../catalog/types';
import { Episode } from '../episode';
import { testCatalog } from './catalog-fixture';
import { axesFor, envKnobs, type AxisValues } from '../difficulty';
import type { VerifyContext } from '../envs/types';
import type { WorldState } from '../world/state';
import type { Action, EnvId, EpisodeConfig } from '../types';

/** An action that only talks; pass what the turn does (tool_calls, answer). */
export const act = (over: Partial<Action> = {}): Action => ({
  assistant_message: 'Working on it.',
  tool_calls: [],
  answer: null,
  ...over,
});

/** The hidden goal's data, typed as the env's goal. */
export const goalOf = <G = any>(episode: Episode): G => episode.hiddenGoal().data as G;

/** A new episode after reset: the episode, the first step's result and the goal. */
export function startEpisode<G = any>(config: EpisodeConfig, catalog: Catalog = testCatalog()) {
  const episode = new Episode(config, catalog);
  const first = episode.reset();
  return { episode, first, goal: goalOf<G>(episode) };
}

/** `start(d, seed, axisOverrides)`: a new episode of one env after reset. */
export const episodeStarter =
  (envId: EnvId, catalog: Catalog = testCatalog()) =>
  (d: number, seed: number, axisOverrides: Partial<AxisValues> = {}): Episode =>
    startEpisode({ envId, d, seed, axisOverrides }, catalog).episode;

/** What a verifier is given at difficulty d: nothing seen, no calls, turn 1, unless `over` says otherwise. */
export function verifyContext(
  catalog: Catalog,
  world: WorldState,
  d: number,
  over: Partial<VerifyContext> = {},
): VerifyContext {
  return { catalog, axes: axesFor(d), d, knobs: envKnobs(d), world, seen: new Map(), calls: [], turn: 1, ...over };
}
