// An engine episode as a line of the project's episode format: a built-in agent's play (fixtures,
// benchmarks, `npm run episodes:play`) and an OpenEnv collect record replayed (openenv-collect.ts).
// Exactly what the episode service would store.
import { playEpisode, type Agent, type Episode } from '@/server/engine';
import { REWARD_REVISION } from '@/server/engine/reward';
import type { Catalog } from '@/server/engine/catalog/types';
import type { Action, EpisodeConfig } from '@/server/engine/types';
import { storedGoalOf } from '@/server/episodes/stored-goal';
import { FORMAT_NAME, FORMAT_VERSION, type EpisodeLine } from './format';

export function lineOf(
  episode: Episode,
  catalogId: string,
  actions: ReadonlyArray<Action | string>,
  meta: { player: string; id?: string; createdAt?: string; runLabel?: string | null },
): EpisodeLine {
  const { envId, d, seed, axisOverrides } = episode.config;
  const b = episode.breakdown;
  return {
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    ...(meta.id ? { id: meta.id } : {}),
    ...(meta.createdAt ? { createdAt: meta.createdAt } : {}),
    envId,
    d,
    seed,
    axisOverrides: (axisOverrides ?? {}) as Record<string, number>,
    axes: episode.axes as unknown as Record<string, number>,
    weights: null,
    catalogId,
    player: meta.player,
    runLabel: meta.runLabel ?? null,
    goalRevealed: false,
    status: episode.done ? 'done' : 'active',
    terminationReason: episode.termination,
    turn: episode.turn,
    reward: b ? b.total : null,
    isCorrect: b ? b.isCorrect : null,
    breakdown: b as unknown as Record<string, unknown> | null,
    hiddenGoal: { ...storedGoalOf(episode) },
    events: episode.events.map((e) => ({ ...e })),
    actions: actions.map((a, i) => ({
      format: typeof a === 'string' ? 'text' : 'json',
      raw: typeof a === 'string' ? a : JSON.stringify(a),
      turn: i,
    })),
    prompts: null,
    origin: 'engine',
    rewardRevision: REWARD_REVISION,
  };
}

export function playToLine(
  config: EpisodeConfig,
  catalog: Catalog,
  agent: Agent,
  player: string,
  extra: { runLabel?: string | null; createdAt?: string } = {},
): EpisodeLine {
  const { episode, actions } = playEpisode(config, catalog, agent);
  return lineOf(episode, catalog.id, actions, { player, ...extra });
}
