// Playing a built-in agent into lines of the project's episode format (fixtures, benchmarks,
// and `npm run episodes:play`): exactly what the episode service would store.
import { playEpisode } from '@/server/engine';
import { REWARD_REVISION } from '@/server/engine/reward';
import type { Agent } from '@/server/engine';
import type { Catalog } from '@/server/engine/catalog/types';
import type { EpisodeConfig } from '@/server/engine/types';
import { storedGoalOf } from '@/server/episodes/stored-goal';
import { FORMAT_NAME, FORMAT_VERSION } from './format';

export function playToLine(
  config: EpisodeConfig,
  catalog: Catalog,
  agent: Agent,
  player: string,
  extra: { runLabel?: string | null; createdAt?: string } = {},
) {
  const { episode, actions } = playEpisode(config, catalog, agent);
  return {
    format: FORMAT_NAME,
    version: FORMAT_VERSION,
    ...(extra.createdAt ? { createdAt: extra.createdAt } : {}),
    envId: config.envId,
    d: config.d,
    seed: config.seed,
    axisOverrides: config.axisOverrides ?? {},
    axes: episode.axes,
    weights: null,
    catalogId: catalog.id,
    player,
    runLabel: extra.runLabel ?? null,
    goalRevealed: false,
    status: 'done' as const,
    terminationReason: episode.termination,
    turn: episode.turn,
    reward: episode.breakdown!.total,
    isCorrect: episode.breakdown!.isCorrect,
    breakdown: episode.breakdown,
    hiddenGoal: storedGoalOf(episode),
    events: episode.events,
    actions: actions.map((a, i) => ({ format: 'json' as const, raw: JSON.stringify(a), turn: i })),
    prompts: null,
    origin: 'engine',
    rewardRevision: REWARD_REVISION,
  };
}
