// Episode.hiddenGoal as stored, and as read back.
//
// The goal's `data` is what the env generated at reset from the episode's config (env, d, seed,
// axis overrides, JOURNEY's env list, catalog): 31–46 KB in PD, SUB and RETURN, ~250 KB in
// JOURNEY, and fixed for the whole episode. The trainer API records thousands of short
// episodes a second, so its recorder stores the goal WITHOUT its data, marked
// `"dataFromConfig":true`, and every reader derives the data again by resetting the engine on
// the row's config (the engine is deterministic; the golden test pins it). Measured: that data
// was ~21 KB written per trainer step, ~45 % of the writer's transaction. Writers that store few episodes (the web playground, imports, curriculum)
// keep writing the data itself; both shapes read back alike.
import { createEpisode, replayRefusal } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EpisodeConfig } from '@/server/engine/types';
import type { HiddenGoal } from './types';

/** The marker key of a goal stored without its data. */
const DERIVED = 'dataFromConfig';

/**
 * The goal as the trainer's recorder stores it: `{"envId","summary","dataFromConfig":true,"slots"?}`
 * (the summary and the revealed slots change turn by turn; the data does not).
 */
export const goalWithoutDataJson = ({ envId, summary, slots }: { envId: string; summary: string[]; slots?: unknown }) =>
  JSON.stringify({ envId, summary, [DERIVED]: true, slots });

/** True when the stored text leaves the data to be derived (a cheap check before loading a catalog). */
export function goalDataIsDerived(stored: string): boolean {
  return stored.includes(`"${DERIVED}":true`) && (JSON.parse(stored) as Record<string, unknown>)[DERIVED] === true;
}

/**
 * The goal's data as the engine generates it for this config (a reset: a few ms, ~10 ms in
 * JOURNEY). Null when the episode was played under engine rules this build cannot replay for
 * its env (version.ts): another engine's goal would be shown as if it were this one's.
 */
export function deriveGoalData(config: EpisodeConfig, catalog: () => Catalog, engineVersion: number): unknown {
  if (replayRefusal(engineVersion, config.envId) !== null) return null;
  const episode = createEpisode(config, catalog());
  episode.reset();
  return episode.hiddenGoal().data;
}

/**
 * The stored goal in the app's shape ({envId, summary, data, slots?}). `derive` is called only
 * for a goal stored without its data.
 */
export function readStoredGoal(stored: string, derive: () => unknown): HiddenGoal {
  const parsed = JSON.parse(stored) as HiddenGoal & { [DERIVED]?: boolean };
  if (parsed[DERIVED] !== true) return parsed;
  const { envId, summary, slots } = parsed;
  return { envId, summary, data: derive(), ...(slots !== undefined ? { slots } : {}) };
}

/**
 * The goal as the playground, the curriculum, batch runs and imports store it: the engine's goal
 * without its live `state` (the world is stored as events), `slots` only when the env has them.
 */
export function storedGoalOf(episode: {
  hiddenGoal(): { envId: string; summary: string[]; data: unknown; slots?: unknown };
}): HiddenGoal {
  const g = episode.hiddenGoal();
  return { envId: g.envId, summary: g.summary, data: g.data, ...(g.slots !== undefined ? { slots: g.slots } : {}) };
}
